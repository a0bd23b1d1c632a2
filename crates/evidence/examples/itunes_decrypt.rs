//! Decrypts one file of an encrypted iTunes backup the way the reader serves it on `open`
//! (`masf_evidence::itunes::keybag::CbcFile`: AES-256-CBC, zero IV, PKCS#7, decrypted as it
//! is read), for `bench/itunes_decrypt.sh`: reads it front to back in 1 MiB reads, as a
//! consumer copying it out would, and prints its length and a checksum of the plaintext (so
//! the work cannot be skipped).
//!
//!     itunes_decrypt FILE KEY_HEX
use std::sync::Arc;

use masf_evidence::bytes::{ByteSource, FileBytes};
use masf_evidence::itunes::keybag::{CbcFile, Key};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, file, key] = args.as_slice() else {
        eprintln!("usage: itunes_decrypt FILE KEY_HEX");
        std::process::exit(2);
    };
    let key: [u8; 32] = hex::decode(key)
        .ok()
        .and_then(|k| k.try_into().ok())
        .unwrap_or_else(|| {
            eprintln!("KEY_HEX: 64 hex digits expected");
            std::process::exit(2);
        });
    let run = || -> Result<(u64, u64), masf_evidence::Error> {
        let stored = FileBytes::open(std::path::Path::new(file))?;
        let plain = CbcFile::open(Arc::new(stored), Key::new(key), None, file.clone())?;
        let mut buf = vec![0u8; 1 << 20];
        let (mut offset, mut sum) = (0u64, 0u64);
        loop {
            let n = plain.read_at(offset, &mut buf)?;
            if n == 0 {
                break;
            }
            sum = sum.wrapping_add(u64::from(buf[n - 1]));
            offset += n as u64;
        }
        Ok((offset, sum))
    };
    match run() {
        Ok((len, sum)) => println!("{len} {sum}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
