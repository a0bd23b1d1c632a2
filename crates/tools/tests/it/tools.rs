//! Each tool's output on known demo files, and byte-identical outputs across runs.

use masf_tools::{Catalog, SourceCtx};
use serde_json::{Value, json};

use crate::support::{android, assert_described, iphone, run, usb};

#[test]
fn the_standard_catalog_lists_its_tools_with_descriptions_and_schemas() {
    let c = Catalog::standard();
    assert_eq!(
        c.names(),
        [
            "doc_metadata",
            "find_files",
            "fs_info",
            "hash_file",
            "hexdump",
            "inventory",
            "leveldb_records",
            "list_dir",
            "parse_plist",
            "partition_table",
            "read_bencode",
            "read_email",
            "read_fit",
            "read_fsevents",
            "read_java",
            "read_json",
            "read_okhttp_cache",
            "read_protobuf",
            "read_segb",
            "read_text",
            "read_xml",
            "search_index",
            "search_text",
            "sqlite_query",
            "sqlite_tables",
            "sqlite_wal_history",
            "stat",
            "strings"
        ]
    );
    for t in c.tools() {
        assert_described(t.as_ref());
    }
}

#[test]
fn list_dir_shows_the_usb_root() {
    let out = run(&usb(), "list_dir", json!({"path": "/"}));
    assert!(
        out.text
            .starts_with("kind\tsize\tid\tmode\tdeleted\ttimes\tpath\n")
    );
    assert!(out.text.contains("\t/notes.txt\n"), "{}", out.text);
    let entries = out.structured.unwrap()["entries"]
        .as_array()
        .unwrap()
        .clone();
    assert!(entries.iter().any(|e| e["path"] == "/notes.txt"));
}

#[test]
fn read_text_reads_the_usb_notes() {
    let out = run(&usb(), "read_text", json!({"path": "/notes.txt"}));
    assert!(out.text.contains("yl.leung@example.com"), "{}", out.text);
    let s = out.structured.unwrap();
    assert_eq!(s["offset"], 0);
    assert_eq!(s["more"], false);
    // A range: offset and length are honoured and capped.
    let part = run(
        &usb(),
        "read_text",
        json!({"path": "/notes.txt", "offset": 2, "length": 5}),
    );
    assert_eq!(part.text.as_bytes(), &out.text.as_bytes()[2..7]);
}

#[test]
fn read_text_reads_build_prop_in_the_system_partition() {
    let out = run(
        &android(),
        "read_text",
        json!({"partition": "system", "path": "/system/build.prop"}),
    );
    assert!(out.text.contains("ro.product.model"), "{}", out.text);
}

#[test]
fn stat_and_hash_file_describe_one_file() {
    let stat = run(&usb(), "stat", json!({"path": "/notes.txt"}));
    assert!(
        stat.text
            .starts_with("path: /notes.txt\nname: notes.txt\nkind: file\n")
    );
    let size = stat.structured.unwrap()["size"].as_u64().unwrap();
    let text = run(&usb(), "read_text", json!({"path": "/notes.txt"})).text;
    assert_eq!(size as usize, text.len());

    let hash = run(&usb(), "hash_file", json!({"path": "/notes.txt"}));
    use sha2::Digest;
    let want = hex::encode(sha2::Sha256::digest(text.as_bytes()));
    assert!(
        hash.text.contains(&format!("sha256: {want}\n")),
        "{}",
        hash.text
    );
    assert!(hash.text.contains("md5: "));
}

#[test]
fn hexdump_shows_offsets_hex_and_ascii() {
    let out = run(
        &android(),
        "hexdump",
        json!({"partition": "system", "path": "/system/build.prop", "length": 20}),
    );
    let lines: Vec<&str> = out.text.lines().collect();
    assert_eq!(lines.len(), 2, "{}", out.text);
    assert!(lines[0].starts_with("00000000: "));
    assert!(lines[1].starts_with("00000010: "));
    assert_eq!(out.structured.unwrap()["length"], 20);
}

#[test]
fn find_files_searches_by_glob_and_size() {
    let out = run(&iphone(), "find_files", json!({"name_glob": "sms.db*"}));
    for want in ["/SMS/sms.db\n", "/SMS/sms.db-wal\n", "/SMS/sms.db-shm\n"] {
        assert!(out.text.contains(want), "{want} in {}", out.text);
    }
    let limited = run(
        &iphone(),
        "find_files",
        json!({"name_glob": "sms.db*", "limit": 1}),
    );
    assert!(
        limited.text.ends_with("# truncated at limit 1\n"),
        "{}",
        limited.text
    );
    let big = run(
        &iphone(),
        "find_files",
        json!({"name_glob": "sms.db*", "min_size": 1_000_000_000}),
    );
    assert_eq!(big.text.lines().count(), 1, "{}", big.text);
}

/// `name_globs`: every entry matching any of the globs, in one walk — the same entries as the
/// single-glob searches together; and each misuse its own rejection.
#[test]
fn find_files_takes_several_globs_in_one_walk() {
    let globs = ["sms.db*", "*.plist", "AddressBook.sqlitedb"];
    let union = run(&iphone(), "find_files", json!({"name_globs": globs}));
    let mut each: Vec<String> = Vec::new();
    for g in globs {
        let out = run(&iphone(), "find_files", json!({"name_glob": g}));
        each.extend(out.text.lines().skip(1).map(str::to_string));
    }
    let mut lines: Vec<String> = union.text.lines().skip(1).map(str::to_string).collect();
    assert!(lines.iter().any(|l| l.contains("/SMS/sms.db")));
    assert!(lines.iter().any(|l| l.contains(".plist")));
    lines.sort();
    each.sort();
    assert_eq!(lines, each);
    // hundreds of names (the iOS plugin's one search): the same entries as the three globs
    let mut many: Vec<String> = (0..600).map(|i| format!("absent-{i}.db")).collect();
    many.extend(globs.iter().map(|g| g.to_string()));
    let many = run(&iphone(), "find_files", json!({"name_globs": many}));
    let mut got: Vec<String> = many.text.lines().skip(1).map(str::to_string).collect();
    got.sort();
    assert_eq!(got, each);
    let catalog = Catalog::standard();
    let find = catalog.get("find_files").unwrap();
    for (args, want) in [
        (
            json!({"name_glob": "a", "name_globs": ["b"]}),
            "give name_glob or name_globs, not both",
        ),
        (
            json!({"name_globs": []}),
            "name_globs must hold at least one glob",
        ),
        (
            json!({"name_globs": ["a", 3]}),
            "name_globs must be a list of strings",
        ),
        (
            json!({"name_globs": "a"}),
            "name_globs must be a list of strings",
        ),
        (
            json!({"name_globs": vec!["x"; 1025]}),
            "name_globs holds 1025 items; at most 1024",
        ),
    ] {
        let err = find.run(&iphone(), &args).unwrap_err().to_string();
        assert!(err.contains(want), "{args}: {err}");
    }
}

#[test]
fn partition_table_and_fs_info_describe_the_android_disk() {
    let pt = run(&android(), "partition_table", json!({}));
    for name in ["\tefs\t", "\tsystem\t", "\tuserdata\t"] {
        assert!(pt.text.contains(name), "{name} in {}", pt.text);
    }
    let info = run(&android(), "fs_info", json!({}));
    assert!(info.text.starts_with("form: disk_image\n"), "{}", info.text);
    assert!(info.text.contains("format: ext4"), "{}", info.text);
    let usb_info = run(&usb(), "fs_info", json!({}));
    assert!(usb_info.text.contains("layer: ewf"), "{}", usb_info.text);
}

/// Every tool's output, for the determinism and no-host-path checks.
fn all_outputs(
    usb: &SourceCtx,
    android: &SourceCtx,
    iphone: &SourceCtx,
) -> Vec<(String, String, Option<Value>)> {
    let calls: Vec<(&SourceCtx, &str, Value)> = vec![
        (usb, "list_dir", json!({"path": "/"})),
        (usb, "stat", json!({"path": "/notes.txt"})),
        (usb, "read_text", json!({"path": "/notes.txt"})),
        (usb, "hexdump", json!({"path": "/notes.txt"})),
        (usb, "hash_file", json!({"path": "/notes.txt"})),
        (usb, "find_files", json!({})),
        (usb, "partition_table", json!({})),
        (usb, "fs_info", json!({})),
        (
            usb,
            "doc_metadata",
            json!({"path": "/Documents/Payment_Instructions.docx"}),
        ),
        (usb, "doc_metadata", json!({"path": "/DCIM/IMG_0412.JPG"})),
        (android, "partition_table", json!({})),
        (android, "fs_info", json!({})),
        (android, "find_files", json!({"partition": "system"})),
        (iphone, "fs_info", json!({})),
        (iphone, "partition_table", json!({})),
        (iphone, "find_files", json!({"name_glob": "*.plist"})),
        (
            iphone,
            "parse_plist",
            json!({"path": "/private/var/root/Library/Lockdown/data_ark.plist"}),
        ),
        (
            iphone,
            "strings",
            json!({"path": "/private/var/mobile/Library/SMS/sms.db-wal"}),
        ),
        (
            iphone,
            "sqlite_tables",
            json!({"path": "/private/var/mobile/Library/SMS/sms.db"}),
        ),
    ];
    calls
        .into_iter()
        .map(|(ctx, tool, args)| {
            let out = run(ctx, tool, args.clone());
            (format!("{tool} {args}"), out.text, out.structured)
        })
        .collect()
}

#[test]
fn outputs_are_byte_identical_across_runs_and_hold_no_host_path() {
    // The second run scans the evidence afresh.
    let first = all_outputs(&usb(), &android(), &iphone());
    let usb2 = SourceCtx::open("src-usb", &crate::support::evidence("usb.E01")).unwrap();
    let android2 =
        SourceCtx::open("src-android", &crate::support::evidence("blk0_sda.bin")).unwrap();
    let iphone2 =
        SourceCtx::open("src-iphone", &crate::support::evidence("iphone_ffs.zip")).unwrap();
    let second = all_outputs(&usb2, &android2, &iphone2);
    assert_eq!(first, second);
    let here = std::fs::canonicalize(env!("CARGO_MANIFEST_DIR")).unwrap();
    let root = here
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .display()
        .to_string();
    for (call, text, structured) in &first {
        assert!(!text.contains(&root), "{call} leaks {root}");
        let s = structured
            .as_ref()
            .map(|s| s.to_string())
            .unwrap_or_default();
        assert!(
            !s.contains(&root),
            "{call} leaks {root} in its structured output"
        );
    }
}

#[test]
fn tool_errors_name_the_problem_without_host_paths() {
    let c = Catalog::standard();
    let err = c
        .get("read_text")
        .unwrap()
        .run(&usb(), &json!({"path": "/no/such/file"}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("/no/such/file"), "{err}");
    let err = c
        .get("list_dir")
        .unwrap()
        .run(&android(), &json!({"path": "/"}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("several file systems"), "{err}");
    assert!(!err.contains(env!("CARGO_MANIFEST_DIR")), "{err}");
}

#[test]
fn parse_plist_reads_xml_and_binary_plists_as_sorted_json() {
    let xml = run(
        &iphone(),
        "parse_plist",
        json!({"path": "/System/Library/CoreServices/SystemVersion.plist"}),
    );
    assert!(
        xml.text.contains("\"ProductVersion\": \"17.3.1\""),
        "{}",
        xml.text
    );
    let s = xml.structured.unwrap();
    assert_eq!(s["value"]["ProductBuildVersion"], "21D61");
    assert_eq!(s["nskeyedarchiver"], false);
    let binary = run(
        &iphone(),
        "parse_plist",
        json!({"path": "/private/var/root/Library/Lockdown/data_ark.plist"}),
    );
    assert!(
        binary.text.contains("\"-TimeZone\": \"Asia/Hong_Kong\""),
        "{}",
        binary.text
    );
    // Keys sorted.
    let keys: Vec<&str> = binary
        .text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix('"'))
        .map(|l| l.split('"').next().unwrap())
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    let err = Catalog::standard()
        .get("parse_plist")
        .unwrap()
        .run(&usb(), &json!({"path": "/notes.txt"}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("not a readable plist"), "{err}");
}

#[test]
fn strings_lists_printable_runs_with_offsets() {
    let out = run(
        &iphone(),
        "strings",
        json!({"path": "/System/Library/CoreServices/SystemVersion.plist", "min_len": 8}),
    );
    assert!(out.text.starts_with("0\t<?xml version="), "{}", out.text);
    assert!(out.text.contains("<string>17.3.1</string>"), "{}", out.text);
}

#[test]
fn doc_metadata_reads_office_pdf_and_exif_fields() {
    let docx = run(
        &usb(),
        "doc_metadata",
        json!({"path": "/Documents/Payment_Instructions.docx"}),
    );
    assert!(docx.text.starts_with("format: office\n"), "{}", docx.text);
    assert!(
        docx.text.contains("\ndc:creator: LEUNG YL\n"),
        "{}",
        docx.text
    );
    assert!(
        docx.text.contains("\ncp:lastModifiedBy: CHAN MH\n"),
        "{}",
        docx.text
    );
    let pdf = run(
        &usb(),
        "doc_metadata",
        json!({"path": "/Documents/Invoice_2025-017.pdf"}),
    );
    assert!(
        pdf.text.contains("\npdf:Author: LEUNG YL\n"),
        "{}",
        pdf.text
    );
    for jpg in ["/DCIM/IMG_0412.JPG", "/DCIM/IMG_0415.JPG"] {
        let out = run(&usb(), "doc_metadata", json!({"path": jpg}));
        assert!(
            out.text.contains("\nexif:BodySerialNumber: 052031004512\n"),
            "{}",
            out.text
        );
        assert_eq!(out.structured.unwrap()["fields"]["exif:Make"], "Canon");
    }
    let err = Catalog::standard()
        .get("doc_metadata")
        .unwrap()
        .run(&usb(), &json!({"path": "/notes.txt"}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("not an Office, PDF, JPEG or TIFF"), "{err}");
}

#[test]
fn find_files_filters_by_stored_time_reading_fat_local_times_in_the_given_zone() {
    // /notes.txt on the demo stick was modified 2025-02-19 09:12:34 local (FAT), i.e.
    // 01:12:34Z in Hong Kong.
    let hit = |args: Value| {
        run(&usb(), "find_files", args)
            .text
            .lines()
            .any(|l| l.ends_with("\t/notes.txt"))
    };
    let hk = json!({"name_glob": "notes.txt", "time_from": "2025-02-19T01:12:00Z",
        "time_to": "2025-02-19T01:13:00Z", "naive_zone": "Asia/Hong_Kong"});
    assert!(hit(hk));
    // Read as UTC the same FAT time is eight hours later: outside the window.
    let utc = json!({"name_glob": "notes.txt", "time_from": "2025-02-19T01:12:00Z",
        "time_to": "2025-02-19T01:13:00Z"});
    assert!(!hit(utc));
    let later = json!({"name_glob": "notes.txt", "time_from": "2025-02-19T09:12:00Z",
        "time_to": "2025-02-19T09:13:00Z"});
    assert!(hit(later));
    // A bad bound is refused with what to write instead.
    let catalog = masf_tools::Catalog::standard();
    let err = catalog
        .get("find_files")
        .unwrap()
        .run(&usb(), &json!({"time_from": "19/02/2025"}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("RFC 3339"), "{err}");
}
