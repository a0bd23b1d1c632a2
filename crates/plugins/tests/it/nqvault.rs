//! NQ Vault's database (`android::nqvault`) on two Android phones, written by
//! `tests/fixtures/nqvault/nqvault.py` (Python's sqlite3, the tables and columns ALEAPP's
//! NQ_Vault reads): every hidden picture and video with its original folder and name, where the
//! vault keeps it, when it was hidden, its album and the PIN's hash; a full file-system layout
//! (`data/media/0`) and the shared storage's (`storage/emulated/0`), an older table without
//! albums, a copy without `hideimagevideo` noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn nq_vault_hidden_files_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/nqvault/nqvault.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let hidden: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Hidden in NQ Vault: "))
            .collect();
        let rows = o["rows"].as_array().unwrap();
        assert_eq!(hidden.len(), rows.len(), "{hidden:#?}");
        for r in rows {
            let p = titled(
                &all,
                &format!(
                    "Hidden in NQ Vault: {}",
                    r["file_name_from"].as_str().unwrap()
                ),
            );
            assert_eq!(p.category, "files");
            for k in ["file_path_from", "file_path_new", "password_id"] {
                assert!(has_fact(p, r[k].as_str().unwrap()), "{k}: {p:#?}");
            }
            if let Some(album) = r
                .get("album_id")
                .and_then(|i| o["albums"][i.to_string()].as_str())
            {
                assert!(has_fact(p, album), "{p:#?}");
            }
            assert_eq!(time_values(p), vec![r["time"].to_string()]);
        }
    }
    let all = run.all_phenomena("a");
    let clip = titled(&all, "Hidden in NQ Vault: clip.mp4");
    assert!(
        has_fact(clip, "95000") && has_fact(clip, "Receipts"),
        "{clip:#?}"
    );
    run.assert_noted("b", &[("storage/emulated/10/Android/data/com.netqin.ps/files/Documents/SystemAndroid/Data/322w465ay423xy11", "hideimagevideo")]);
}
