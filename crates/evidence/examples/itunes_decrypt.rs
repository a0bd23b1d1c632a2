//! Decrypts one file of an encrypted iTunes backup the way the reader does on `open`
//! (`masf_evidence::itunes::keybag::decrypt`: AES-256-CBC, zero IV, PKCS#7), for
//! `bench/itunes_decrypt.sh`. Reads the file whole, decrypts in memory, prints the plaintext's
//! size and its last 16 bytes (which depend on every block before them being decrypted in turn).
//!
//!     itunes_decrypt FILE KEY_HEX
use masf_evidence::itunes::keybag::{Key, decrypt};

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
    let mut data = std::fs::read(file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(1);
    });
    if decrypt(&Key::new(key), &mut data).is_none() {
        eprintln!("{file}: does not decrypt (length or padding)");
        std::process::exit(1);
    }
    let tail = &data[data.len().saturating_sub(16)..];
    println!("{} {}", data.len(), hex::encode(tail));
}
