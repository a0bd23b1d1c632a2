//! Decrypts a SQLCipher database (with its `-wal` when one is beside it) into a plain SQLite
//! file the way `sqlite_query`'s `cipher` does (`masf_evidence::sqlcipher::decrypt`), with
//! Signal for Android's settings (the passphrase, one PBKDF2-HMAC-SHA1 round, 4,096-byte pages,
//! HMAC-SHA1), for `bench/sqlcipher.sh`; prints the report line.
//!
//!     sqlcipher_decrypt DB PASSPHRASE OUT
use masf_evidence::sqlcipher::{Hash, Key, Settings, decrypt};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, db, pass, out] = args.as_slice() else {
        eprintln!("usage: sqlcipher_decrypt DB PASSPHRASE OUT");
        std::process::exit(2);
    };
    let settings = Settings {
        page_size: 4096,
        kdf_iter: 1,
        kdf: Hash::Sha1,
        hmac: Some(Hash::Sha1),
        plaintext_header: 0,
    };
    let run = || -> Result<String, masf_evidence::Error> {
        let file = std::fs::File::open(db).map_err(|e| masf_evidence::Error::Io {
            path: db.into(),
            source: e,
        })?;
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        let wal = std::fs::read(format!("{db}-wal")).ok();
        let mut target = std::fs::File::create(out).map_err(|e| masf_evidence::Error::Io {
            path: out.into(),
            source: e,
        })?;
        let report = decrypt(
            db,
            &mut std::io::BufReader::with_capacity(1 << 20, file),
            len,
            wal.as_deref(),
            &Key::Passphrase(zeroize::Zeroizing::new(pass.as_bytes().to_vec())),
            None,
            &settings,
            &mut target,
        )?;
        Ok(report.describe(true))
    };
    match run() {
        Ok(line) => println!("{line}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
