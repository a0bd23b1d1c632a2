//! What a probe answers: the [`Format`] a byte stream holds, whether it is [`Encryption`]
//! encrypted, and the [`Probe`] itself with its reason (the types [`crate::probe`] and the boot
//! sector readers of [`crate::bootsect`] share).

use serde::Serialize;

/// What a byte stream holds. Serialised as its [`Format::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Ext2,
    Ext3,
    Ext4,
    /// An external ext3/ext4 journal device (not a file system).
    ExtJournal,
    Fat12,
    Fat16,
    Fat32,
    Ntfs,
    ExFat,
    /// A BitLocker-encrypted volume.
    BitLocker,
    F2fs,
    Erofs,
    Squashfs,
    Apfs,
    HfsPlus,
    Hfsx,
    /// Classic HFS (without an embedded HFS+ volume).
    Hfs,
    Iso9660,
    LinuxSwap,
    Luks,
    AndroidSparse,
    /// Android boot or vendor_boot image (kernel, ramdisk).
    AndroidBoot,
    /// Android verified-boot metadata (vbmeta).
    AndroidVbmeta,
    /// Android dynamic partitions (`super`, liblp metadata).
    AndroidSuper,
    /// A partition encrypted with Android full-disk encryption (crypto footer found).
    AndroidFde,
    Gpt,
    Mbr,
    /// Apple Partition Map.
    Apm,
    Ewf,
    /// A QEMU copy-on-write image (QCOW2).
    Qcow2,
    /// A Microsoft Virtual Hard Disk (VHD) image.
    Vhd,
    /// A Microsoft VHDX image (Hyper-V).
    Vhdx,
    /// A VMware virtual disk (VMDK): a sparse extent, or a descriptor naming extent files.
    Vmdk,
    /// A Mac OS sparse image (`.sparseimage`, `sprs`).
    MacSparseImage,
    Zip,
    Tar,
    Gzip,
    Sqlite,
    Plist,
    Png,
    Jpeg,
    /// Every sampled block is zero (unused or wiped).
    Zeroed,
    /// Zero bytes long.
    Empty,
    /// Nothing recognised.
    Unknown,
}

impl Format {
    /// Short name, as in JSON (`ext4`, `fat32`, `hfsplus`, `iso9660`, `android_fde`…).
    pub fn name(self) -> &'static str {
        match self {
            Format::Ext2 => "ext2",
            Format::Ext3 => "ext3",
            Format::Ext4 => "ext4",
            Format::ExtJournal => "ext_journal",
            Format::Fat12 => "fat12",
            Format::Fat16 => "fat16",
            Format::Fat32 => "fat32",
            Format::Ntfs => "ntfs",
            Format::ExFat => "exfat",
            Format::BitLocker => "bitlocker",
            Format::F2fs => "f2fs",
            Format::Erofs => "erofs",
            Format::Squashfs => "squashfs",
            Format::Apfs => "apfs",
            Format::HfsPlus => "hfsplus",
            Format::Hfsx => "hfsx",
            Format::Hfs => "hfs",
            Format::Iso9660 => "iso9660",
            Format::LinuxSwap => "linux_swap",
            Format::Luks => "luks",
            Format::AndroidSparse => "android_sparse",
            Format::AndroidBoot => "android_boot",
            Format::AndroidVbmeta => "android_vbmeta",
            Format::AndroidSuper => "android_super",
            Format::AndroidFde => "android_fde",
            Format::Gpt => "gpt",
            Format::Mbr => "mbr",
            Format::Apm => "apm",
            Format::Ewf => "ewf",
            Format::Qcow2 => "qcow2",
            Format::Vhd => "vhd",
            Format::Vhdx => "vhdx",
            Format::Vmdk => "vmdk",
            Format::MacSparseImage => "sparseimage",
            Format::Zip => "zip",
            Format::Tar => "tar",
            Format::Gzip => "gzip",
            Format::Sqlite => "sqlite",
            Format::Plist => "plist",
            Format::Png => "png",
            Format::Jpeg => "jpeg",
            Format::Zeroed => "zeroed",
            Format::Empty => "empty",
            Format::Unknown => "unknown",
        }
    }

    /// Whether this is a file system (something with directories and files).
    pub fn is_file_system(self) -> bool {
        matches!(
            self,
            Format::Ext2
                | Format::Ext3
                | Format::Ext4
                | Format::Fat12
                | Format::Fat16
                | Format::Fat32
                | Format::Ntfs
                | Format::ExFat
                | Format::F2fs
                | Format::Erofs
                | Format::Squashfs
                | Format::Apfs
                | Format::HfsPlus
                | Format::Hfsx
                | Format::Hfs
                | Format::Iso9660
        )
    }
}

impl Serialize for Format {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether (and how) the content is encrypted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Encryption {
    /// No sign of encryption.
    None,
    /// File-based encryption (ext4/F2FS `encrypt` feature): metadata readable, encrypted
    /// directories' names and contents not.
    Fbe { evidence: String },
    /// Full-disk (volume) encryption: Android FDE crypto footer, BitLocker.
    Fde { evidence: String },
    /// A LUKS container.
    Luks,
    /// No file system, and the bytes look random: likely encrypted.
    Unknown { evidence: String },
}

/// The result of [`probe`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Probe {
    /// What was recognised.
    pub format: Format,
    /// Whether MASForensics has a reader for this format (file system, container or file).
    pub readable: bool,
    /// Why: the structure found and where, or why it cannot be read.
    pub reason: String,
    /// Volume label, where the format stores one where it was looked for.
    pub label: Option<String>,
    /// Volume UUID or serial number, as `blkid` prints it.
    pub uuid: Option<String>,
    /// Feature flags by name (ext4 compat/incompat/ro_compat, F2FS features, …).
    pub features: Vec<String>,
    /// Whether the content is encrypted, with the evidence for saying so.
    pub encryption: Encryption,
}

impl Probe {
    pub(crate) fn new(format: Format, readable: bool, reason: impl Into<String>) -> Probe {
        Probe {
            format,
            readable,
            reason: reason.into(),
            label: None,
            uuid: None,
            features: Vec::new(),
            encryption: Encryption::None,
        }
    }

    /// A recognised format without a reader here.
    pub(crate) fn not_yet_readable(format: Format, what: impl std::fmt::Display) -> Probe {
        Probe::new(
            format,
            false,
            format!("{what}: recognised, not yet readable"),
        )
    }
}
