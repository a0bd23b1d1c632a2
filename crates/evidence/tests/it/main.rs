//! Integration tests of the evidence layers, on fixtures made by real tools and on public images.

mod android_images;
mod android_super;
mod apfs;
mod archive;
mod disk_chains;
mod ewf;
mod ewf2;
mod ext4;
mod f2fs;
mod fat;
mod fuzz_regressions;
mod hfs;
mod itunes_encrypted;
mod leveldb;
mod mac_sparse;
mod ntfs;
mod scan;
mod sqlcipher;
mod support;
mod udif;
mod vhdx;
mod virtual_disks;
mod volume;
