#![no_main]
//! Fuzz the keybag parser of encrypted iTunes backups (`Manifest.plist` `BackupKeyBag` TLV):
//! any input parses or is an error naming a tag and offset, never a panic; a parsed keybag is
//! unlocked with a fixed password when its iteration counts are small.
//! The driver is `masf_evidence::fuzzing::run_target`, which the regression replay uses too.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("keybag", data);
});
