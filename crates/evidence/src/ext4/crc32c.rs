//! CRC-32C (Castagnoli), the checksum of ext4's `metadata_csum` feature.
//!
//! Hand-written (a table built at compile time, 20 lines) rather than a new dependency: it only
//! checks the 1 KiB superblock, once per opened file system, so speed does not matter.

const POLY: u32 = 0x82F6_3B78; // reflected Castagnoli polynomial

const TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { (c >> 1) ^ POLY } else { c >> 1 };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

/// The raw CRC-32C update, without the final inversion, as ext4's `ext4_chksum` computes it
/// (the kernel seeds it with `!0` and stores the result as is).
pub(crate) fn crc32c_raw(mut crc: u32, data: &[u8]) -> u32 {
    for &b in data {
        crc = TABLE[((crc ^ u32::from(b)) & 0xff) as usize] ^ (crc >> 8);
    }
    crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_check_value() {
        // The CRC-32C catalogue check value of "123456789" (with the usual final inversion).
        assert_eq!(!crc32c_raw(!0, b"123456789"), 0xE306_9283);
        assert_eq!(!crc32c_raw(!0, b""), 0);
    }
}
