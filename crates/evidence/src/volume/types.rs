//! Human names of partition types.
//!
//! The GPT table holds every type GUID that GPT fdisk 1.0.9 (`sgdisk -L`) knows, with the name
//! `sgdisk -i` prints for it; the MBR table holds every type byte util-linux 2.38
//! (`sfdisk --label dos -T`) knows, with its name. Both lists were read from those tools (see
//! `tests/fixtures/volume/README.md`); they are facts about on-disk identifiers, kept as data so
//! a lookup never depends on a tool being installed.

/// GPT partition type GUIDs (upper case, sorted for binary search) and their names.
const GPT_TYPES: &[(&str, &str)] = &[
    (
        "01B41E1B-002A-453C-9F17-88793989FF8F",
        "Ceph multipath block write-ahead log",
    ),
    (
        "024DEE41-33E7-11D3-9D69-0008C781F39F",
        "MBR partition scheme",
    ),
    (
        "0311FC50-01CA-4725-AD77-9ADBB20ACE98",
        "Acronis Secure Zone",
    ),
    ("0394EF8B-237E-11E1-B4B3-E89A8F7FC3A7", "Midnight BSD UFS"),
    ("05E044DF-92F1-4325-B69E-374A82E97D6E", "Android SBL3"),
    ("0657FD6D-A4AB-43C4-84E5-0933C84B4F4F", "Linux swap"),
    ("08185F0C-892D-428A-A789-DBEEC8F55E6A", "Fuchsia Data"),
    ("09845860-705F-4BB5-B16C-8A8A099CAF52", "ChromeOS mini-OS"),
    ("098DF793-D712-413D-9D4E-89D711772228", "Android RPM"),
    ("0A288B1F-22C9-E33B-8F5D-0E81686A68CB", "Android modem ST2"),
    ("0D802D54-058D-4A20-AD2D-C7A362CEACD4", "Android MFG"),
    ("0DEA65E5-A676-4CDF-823C-77568B577ED5", "Android spare4"),
    ("0FC63DAF-8483-4772-8E79-3D69D8477DE4", "Linux filesystem"),
    ("10A0C19C-516A-5444-5CE3-664C3226A794", "Android limits"),
    (
        "10B8DBAA-D2BF-42A9-98C6-A7C5DB3701E7",
        "Fuchsia factory ro bootloader data",
    ),
    ("11406F35-1173-4869-807B-27DF71802812", "Android DPO"),
    (
        "114EAFFE-1552-4022-B26E-9B053604CF84",
        "Android bootloader 2",
    ),
    (
        "166418DA-C469-4022-ADF4-B30AFD37F176",
        "Ceph dm-crypt LUKS block DB",
    ),
    ("193D1EA4-B3CA-11E4-B075-10604B889DCF", "Android EXT"),
    ("19A710A2-B3CA-11E4-B026-10604B889DCF", "Android meta"),
    ("1B81E7E6-F50D-419B-A739-2AEEF8DA3335", "Android user data"),
    ("1D75395D-F2C6-476B-A8B7-45CC1C97B476", "Fuchsia misc"),
    ("20117F86-E985-4357-B9EE-374BC1D8487D", "Android boot 2"),
    ("2013373E-1AC4-4131-BFD8-B6A7AC638772", "Android FSG 2"),
    ("20A0C19C-286A-42FA-9CE7-F64C3226A794", "Android DDR"),
    ("20AC26BE-20B7-11E3-84C5-6CFDB94711E9", "Android metadata"),
    (
        "21686148-6449-6E6F-744E-656564454649",
        "BIOS boot partition",
    ),
    (
        "23CC04DF-C278-4CE7-8471-897D1A4BCDF7",
        "Fuchsia Zircon boot image (slot B)",
    ),
    ("2568845D-2332-4675-BC39-8FA5A4748D15", "Android bootloader"),
    ("2644BCC0-F36A-4792-9533-1738BED53EE3", "Android PG1FS"),
    ("2967380E-134C-4CBB-B6DA-17E7CE1CA45D", "Fuchsia Blob"),
    (
        "2C7357ED-EBD2-46D9-AEC1-23D437EC2BF5",
        "Linux x86-64 root verity",
    ),
    ("2C86E742-745E-4FDD-BFD8-B6A7AC638772", "Android SSD"),
    (
        "2DB519C4-B10F-11DC-B99B-0019D1879648",
        "NetBSD concatenated",
    ),
    ("2DB519EC-B10F-11DC-B99B-0019D1879648", "NetBSD encrypted"),
    ("2E0A753D-9E48-43B0-8337-B15192CB1B5E", "ChromeOS reserved"),
    (
        "2E313465-19B9-463F-8126-8A7993773801",
        "Apple SoftRAID Scratch",
    ),
    ("303E6AC3-AF15-4C54-9E9B-D9A8FBECF401", "Android SEC"),
    (
        "306E8683-4FE2-4330-B7C0-00A917C16966",
        "Ceph dm-crypt block write-ahead log",
    ),
    ("30CD0809-C2B2-499C-8879-2D6B78529876", "Ceph block DB"),
    ("323EF595-AF7A-4AFA-8060-97BE72841BB9", "Android encrypt"),
    ("379D107E-229E-499D-AD4F-61F5BCF87BD4", "Android spare3"),
    ("37AFFC90-EF7D-4E96-91C3-2D7AE055B174", "IBM GPFS"),
    (
        "3884DD41-8582-4404-B9A8-E9B84F2DF50E",
        "Container Linux resizable rootfs",
    ),
    ("38F428E6-D326-425D-9140-6E0EA133647C", "Android system 1"),
    ("3B8F8425-20E0-4F3B-907F-1A25A76F98E8", "Linux /srv"),
    ("3CB8E202-3B7E-47DD-8A3C-7FF2A13CFCEC", "ChromeOS root"),
    ("3DE21764-95BD-54BD-A5C3-4ABE786F38A8", "U-Boot boot loader"),
    ("3F0F8318-F146-4E6B-8222-C28C8F02E0D5", "ChromeOS hibernate"),
    ("400FFDCD-22E0-47E7-9A23-F16ED9382388", "Android APPSBL"),
    ("4177C722-9E92-4AAB-8644-43502BFD5506", "Android recovery 1"),
    ("41D0E340-57E3-954E-8C1E-17ECAC44CFF5", "Fuchsia FVM"),
    (
        "421A8BFC-85D9-4D85-ACDA-B64EEC0133E9",
        "Fuchsia verified boot metadata (slot A/B/R)",
    ),
    ("42465331-3BA3-10F1-802A-4861696B7521", "Haiku BFS"),
    ("426F6F74-0000-11AA-AA11-00306543ECAC", "Recovery HD"),
    ("4301D2A6-4E3B-4B2A-BB94-9E0B2C4225EA", "Linux IA-64 /usr"),
    ("44479540-F297-41B2-9AF7-D131D5F0458A", "Linux x86 root (/)"),
    ("45864011-CF89-46E6-A445-85262E065604", "Android EKSST"),
    (
        "45B0969E-8AE0-4982-BF9D-5A8D867AF560",
        "Ceph multipath journal",
    ),
    (
        "45B0969E-9B03-4F30-B4C6-35865CEFF106",
        "Ceph dm-crypt LUKS journal",
    ),
    (
        "45B0969E-9B03-4F30-B4C6-5EC00CEFF106",
        "Ceph dm-crypt journal",
    ),
    ("45B0969E-9B03-4F30-B4C6-B4B80CEFF106", "Ceph journal"),
    (
        "4627AE27-CFEF-48A1-88FE-99C3509ADE26",
        "Android raw resources",
    ),
    (
        "4778ED65-BF42-45FA-9C5B-287A1DC4AAB1",
        "Barebox boot loader",
    ),
    ("48435546-4953-2041-494E-5354414C4C52", "Fuchsia Install"),
    ("48465300-0000-11AA-AA11-00306543ECAC", "Apple HFS/HFS+"),
    ("49A4D17F-93A3-45C1-A0DE-F50B2EBE2599", "Android boot 1"),
    ("49F48D32-B10E-11DC-B99B-0019D1879648", "NetBSD swap"),
    ("49F48D5A-B10E-11DC-B99B-0019D1879648", "NetBSD FFS"),
    ("49F48D82-B10E-11DC-B99B-0019D1879648", "NetBSD LFS"),
    ("49F48DAA-B10E-11DC-B99B-0019D1879648", "NetBSD RAID"),
    (
        "49FD7CB8-DF15-4E73-B9D9-992070127F0F",
        "Fuchsia Volume Manager",
    ),
    ("4C616265-6C00-11AA-AA11-00306543ECAC", "Apple label"),
    ("4D21B016-B534-45C2-A9FB-5C16E091FD2D", "Linux /var"),
    ("4E5E989E-4C86-11E8-A15B-480FCF35F8E6", "Fuchsia sys-config"),
    (
        "4F68BCE3-E8CD-4DB1-96E7-FBCAF984B709",
        "Linux x86-64 root (/)",
    ),
    ("4FBD7E29-8AE0-4982-BF9D-5A8D867AF560", "Ceph multipath OSD"),
    ("4FBD7E29-9D25-41B8-AFD0-062C0CEFF05D", "Ceph OSD"),
    (
        "4FBD7E29-9D25-41B8-AFD0-35865CEFF05D",
        "Ceph dm-crypt LUKS OSD",
    ),
    ("4FBD7E29-9D25-41B8-AFD0-5EC00CEFF05D", "Ceph dm-crypt OSD"),
    ("516E7CB4-6ECF-11D6-8FF8-00022D09712B", "FreeBSD disklabel"),
    ("516E7CB5-6ECF-11D6-8FF8-00022D09712B", "FreeBSD swap"),
    ("516E7CB6-6ECF-11D6-8FF8-00022D09712B", "FreeBSD UFS"),
    ("516E7CB8-6ECF-11D6-8FF8-00022D09712B", "FreeBSD Vinum/RAID"),
    ("516E7CBA-6ECF-11D6-8FF8-00022D09712B", "FreeBSD ZFS"),
    ("52414944-0000-11AA-AA11-00306543ECAC", "Apple RAID"),
    ("52414944-5F4F-11AA-AA11-00306543ECAC", "Apple RAID offline"),
    (
        "52637672-7900-11AA-AA11-00306543ECAC",
        "Apple APFS Recovery",
    ),
    ("5265636F-7665-11AA-AA11-00306543ECAC", "AppleTV recovery"),
    ("53746F72-6167-11AA-AA11-00306543ECAC", "Apple Core Storage"),
    ("55465300-0000-11AA-AA11-00306543ECAC", "Apple UFS"),
    (
        "558D43C5-A1AC-43C0-AAC8-D1472B2923D1",
        "Microsoft Storage Replica",
    ),
    ("5594C694-C871-4B5F-90B1-690A6F68E0F7", "Android cache"),
    ("57B90A16-22C9-E33B-8F5D-0E81686A68CB", "Android FSC"),
    (
        "5808C8AA-7E8F-42E0-85D2-E1E90434CFB3",
        "Windows LDM metadata",
    ),
    (
        "5A3A90BE-4C86-11E8-A15B-480FCF35F8E6",
        "Fuchsia factory-config",
    ),
    (
        "5CE17FCE-4087-4169-B7FF-056CC58473F9",
        "Ceph block write-ahead log",
    ),
    (
        "5DFBF5F4-2848-4BAC-AA5E-0D9A20B745A6",
        "Container Linux /usr",
    ),
    ("5ECE94FE-4C86-11E8-A15B-480FCF35F8E6", "Fuchsia bootloader"),
    ("606B000B-B7C7-4653-A7D5-B737332C899D", "Fuchsia System"),
    ("638FF8E2-22C9-E33B-8F5D-0E81686A68CB", "Android FSG 1"),
    (
        "65ADDCF4-0C5C-4D9A-AC2D-D90B5CBFCD03",
        "Android device info",
    ),
    ("66C9B323-F7FC-48B6-BF96-6F32E335A428", "Android RAM dump"),
    (
        "69646961-6700-11AA-AA11-00306543ECAC",
        "Apple APFS Pre-Boot",
    ),
    (
        "69DAD710-2CE4-4E3C-B16C-21A1D49ABED3",
        "Linux ARM32 root (/)",
    ),
    (
        "6A2460C3-CD11-4E8B-80A8-12CCE268ED0A",
        "Fuchsia verified boot metadata (R)",
    ),
    (
        "6A491E03-3BE7-4545-8E38-83320E0EA880",
        "Linux IA-64 /usr verity",
    ),
    ("6A82CB45-1DD2-11B2-99A6-080020736631", "Solaris boot"),
    ("6A85CF4D-1DD2-11B2-99A6-080020736631", "Solaris root"),
    ("6A87C46F-1DD2-11B2-99A6-080020736631", "Solaris swap"),
    (
        "6A898CC3-1DD2-11B2-99A6-080020736631",
        "Solaris /usr & Mac ZFS",
    ),
    ("6A8B642B-1DD2-11B2-99A6-080020736631", "Solaris backup"),
    ("6A8D2AC7-1DD2-11B2-99A6-080020736631", "Solaris Reserved 5"),
    ("6A8EF2E9-1DD2-11B2-99A6-080020736631", "Solaris /var"),
    ("6A90BA39-1DD2-11B2-99A6-080020736631", "Solaris /home"),
    (
        "6A9283A5-1DD2-11B2-99A6-080020736631",
        "Solaris alternate sector",
    ),
    ("6A945A3B-1DD2-11B2-99A6-080020736631", "Solaris Reserved 1"),
    ("6A96237F-1DD2-11B2-99A6-080020736631", "Solaris Reserved 4"),
    ("6A9630D1-1DD2-11B2-99A6-080020736631", "Solaris Reserved 2"),
    ("6A980767-1DD2-11B2-99A6-080020736631", "Solaris Reserved 3"),
    ("6C95E238-E343-4BA8-B489-8681ED22AD0B", "Android persist"),
    (
        "6E11A4E7-FBCA-4DED-B9E9-E1A512BB664E",
        "Linux ARM64 /usr verity",
    ),
    (
        "734E5AFE-F61A-11E6-BC64-92361F002671",
        "Atari TOS basic data",
    ),
    (
        "7386CDF2-203C-47A9-A498-F2ECCE45A2D6",
        "Linux ARM32 root verity",
    ),
    ("7412F7D5-A156-4B13-81DC-867174929325", "ONIE boot"),
    ("74BA7DD9-A689-11E1-BD04-00E081286ACF", "FreeBSD nandfs"),
    ("75250D76-8CC6-458E-BD66-BD47CC81A812", "Linux x86 /usr "),
    ("75894C1E-3AEB-11D3-B7C1-7B03A0000000", "HP-UX data"),
    (
        "767941D0-2085-11E3-AD3B-6CFDB94711E9",
        "Android fastboot/tertiary",
    ),
    ("7696D5B6-43FD-4664-A228-C563C4A1E8CC", "Android board info"),
    ("773F91EF-66D4-49B5-BD83-D683BF40AD16", "Linux user's home"),
    (
        "77FF5F63-E7B6-4633-ACF4-1565B864C0E6",
        "Linux x86-64 /usr verity",
    ),
    ("7C29D3AD-78B9-452E-9DEB-D098D542F092", "Android spare2"),
    ("7C3457EF-0000-11AA-AA11-00306543ECAC", "Apple APFS"),
    ("7C5222BD-8F5D-4087-9C00-BF9843C7B58C", "SPDK block device"),
    ("7D0359A3-02B3-4F0A-865C-654403E70625", "Linux ARM32 /usr"),
    ("7EC6F557-3BC5-4ACA-B293-16EF5DF639D1", "Linux /var/tmp"),
    (
        "7F4A666A-16F3-47A2-8445-152EF4D03F6C",
        "Ceph multipath block 2",
    ),
    ("7FFEC5C9-2D00-49B7-8941-3EA10A5586B7", "Linux dm-crypt"),
    ("824CC7A0-36A8-11E3-890A-952519AD3F61", "OpenBSD disklabel"),
    ("82ACC91F-357C-4A68-9C8F-689E1B1A23A1", "Android misc 1"),
    ("83BD6B9D-7F41-11DC-BE0B-001560B84F0F", "FreeBSD boot"),
    ("8484680C-9521-48C6-9C11-B0720656F69E", "Linux x86-64 /usr"),
    ("85D5E45A-237C-11E1-B4B3-E89A8F7FC3A7", "Midnight BSD data"),
    ("85D5E45B-237C-11E1-B4B3-E89A8F7FC3A7", "Midnight BSD swap"),
    ("85D5E45C-237C-11E1-B4B3-E89A8F7FC3A7", "Midnight BSD Vinum"),
    ("85D5E45D-237C-11E1-B4B3-E89A8F7FC3A7", "Midnight BSD ZFS"),
    ("85D5E45E-237C-11E1-B4B3-E89A8F7FC3A7", "Midnight BSD boot"),
    (
        "86A32090-3647-40B9-BBBD-38D8C573AA86",
        "Ceph dm-crypt LUKS block write-ahead log",
    ),
    ("86A7CB80-84E1-408C-99AB-694F1A410FC7", "Android FOTA"),
    (
        "86ED10D5-B607-45BB-8957-D350F23D0571",
        "Linux IA-64 root verity",
    ),
    (
        "89C57F98-2FE5-4DC0-89C1-5EC00CEFF2BE",
        "Ceph dm-crypt disk in creation",
    ),
    (
        "89C57F98-2FE5-4DC0-89C1-F3AD0CEFF2BE",
        "Ceph disk in creation",
    ),
    ("8B94D043-30BE-4871-9DFA-D69556E8C1F3", "Fuchsia guid-test"),
    ("8C6B52AD-8A9E-4398-AD09-AE916E53AE2D", "Android SBL2"),
    ("8C8F8EFF-AC95-4770-814A-21994F2DBC8F", "Veracrypt data"),
    ("8DA63339-0007-60C0-C436-083AC8230908", "Linux reserved"),
    ("8ED8AE95-597F-4C8A-A5BD-A7FF8E4DFAA9", "Android RCT"),
    (
        "8F461B0D-14EE-4E81-9AA9-049B6FB97ABD",
        "Linux x86 /usr verity",
    ),
    ("8F68CC74-C5E5-48DA-BE91-A0C8C15E9C80", "Android factory"),
    ("900B0FC5-90CD-4D4F-84F9-9F8ED579DB88", "Fuchsia emmc-boot1"),
    ("90B6FF38-B98F-4358-A21F-48F35B4A8AD3", "ArcaOS Type 1"),
    ("9198EFFC-31C0-11DB-8F78-000C2911D1B8", "VMWare reserved"),
    ("933AC7E1-2EB4-4F13-B844-0E14E2AEF915", "Linux /home"),
    (
        "93B0052D-02D9-4D8A-A43B-33A3EE4DFBC3",
        "Ceph dm-crypt block DB",
    ),
    ("97D7B011-54DA-4835-B3C4-917AD6E73D74", "Android system 2"),
    (
        "98523EC6-90FE-4C67-B50A-0FC59ED6F56D",
        "LG (Android) advanced flasher",
    ),
    (
        "993D8D3D-F80E-4225-855A-9DAF8ED7EA97",
        "Linux IA-64 root (/)",
    ),
    (
        "9B37FFF6-2E58-466A-983A-F7926D0B04E0",
        "Fuchsia Zircon boot image (slot A/B/R)",
    ),
    (
        "9D275380-40AD-11DB-BF97-000C2911D1B8",
        "VMWare kcore crash protection",
    ),
    ("9D72D4E4-9958-42DA-AC26-BEA7A90B0434", "Android recovery 2"),
    ("9E1A2D38-C612-4316-AA26-8B49521E5A8B", "PowerPC PReP boot"),
    (
        "9FDAA6EF-4B3F-40D2-BA8D-BFF16BFB887B",
        "Android factory (alt)",
    ),
    ("A053AA7F-40B8-4B1C-BA08-2F68AC71A4F4", "Android QSEE/tz"),
    (
        "A0E5CF57-2DEF-46BE-A80C-A2067C37CD49",
        "Fuchsia Zircon boot image (slot R)",
    ),
    (
        "A13B4D9A-EC5F-11E8-97D8-6C3BE52705BF",
        "Fuchsia verified boot metadata (A)",
    ),
    ("A19D880F-05FC-4D3B-A006-743F0F84911E", "Linux RAID"),
    ("A19F205F-CCD8-4B6D-8F1E-2D9BC24CFFB1", "Android CDT"),
    (
        "A288ABF2-EC5F-11E8-97D8-6C3BE52705BF",
        "Fuchsia verified boot metadata (B)",
    ),
    (
        "A409E16B-78AA-4ACC-995C-302352621A41",
        "Fuchsia durable mutable boot loader",
    ),
    ("A893EF21-E428-470A-9E55-0668FD91A2D9", "Android cache"),
    ("AA31E02A-400F-11DB-9590-000C2911D1B8", "VMWare VMFS"),
    ("AC6D7924-EB71-4DF8-B48D-E267B27148FF", "Android OEM"),
    ("AF9B60A0-1431-4F62-BC68-3311714A69AD", "Windows LDM data"),
    ("B0E01050-EE5F-4390-949A-9101B17104E9", "Linux ARM64 /usr"),
    ("B2B2E8D1-7C10-4EBC-A2D0-4614568260AD", "Fuchsia emmc-boot2"),
    (
        "B6FA30DA-92D2-4A9A-96F1-871EC6486200",
        "Apple SoftRAID Status",
    ),
    (
        "B921B045-1DF0-41C3-AF44-4C6F280D3FAE",
        "Linux ARM64 root (/)",
    ),
    (
        "BBBA6DF5-F46F-4A89-8F59-8765B2727503",
        "Apple SoftRAID Cache",
    ),
    ("BC13C2FF-59E6-4262-A352-B275FD6F7172", "XBOOTLDR partition"),
    ("BD59408B-4514-490D-BF12-9878D963F378", "Android config"),
    (
        "BE9067B9-EA49-4F15-B4F6-F36F8C9E1818",
        "Container Linux root on RAID",
    ),
    (
        "BFBFAFE7-A34F-448A-9A5B-6213EB736C22",
        "Lenovo system partition",
    ),
    ("C00EEF24-7709-43D6-9799-DD2B411E7A3C", "Android PMIC"),
    (
        "C12A7328-F81F-11D2-BA4B-00A0C93EC93B",
        "EFI system partition",
    ),
    (
        "C215D751-7BCD-4649-BE90-6627490A4C05",
        "Linux ARM32 /usr verity",
    ),
    ("C5A0AEEC-13EA-11E5-A1B1-001E67CA0C3C", "Android vendor"),
    ("C91818F9-8025-47AF-89D2-F030D7000C2C", "Plan 9"),
    (
        "C95DC21A-DF0E-4340-8D7B-26CBFA9A03E0",
        "Container Linux /OEM customizations",
    ),
    ("CA7D7CCB-63ED-4C53-861C-1742536059CC", "Linux LUKS"),
    ("CAB6E88E-ABF3-4102-A07A-D4BB9BE3C1D3", "ChromeOS firmware"),
    (
        "CAFECAFE-8AE0-4982-BF9D-5A8D867AF560",
        "Ceph multipath block 1",
    ),
    (
        "CAFECAFE-9B03-4F30-B4C6-35865CEFF106",
        "Ceph dm-crypt LUKS block",
    ),
    (
        "CAFECAFE-9B03-4F30-B4C6-5EC00CEFF106",
        "Ceph dm-crypt block",
    ),
    ("CAFECAFE-9B03-4F30-B4C6-B4B80CEFF106", "Ceph block"),
    ("CEF5A9AD-73BC-4601-89F3-CDEEEEE321A1", "QNX6 Power-Safe"),
    (
        "D13C5D3B-B5D1-422A-B29F-9454FDC89D76",
        "Linux x86 root verity",
    ),
    ("D3BFE2DE-3DAF-11DF-BA40-E3A556D89593", "Intel Rapid Start"),
    (
        "D4E0D938-B7FA-48C1-9D21-BC5ED5C4B203",
        "Android WDOG debug/sdi",
    ),
    ("D4E6E2CD-4469-46F3-B5CB-1BFF57AFC149", "ONIE config"),
    (
        "D9FD4535-106C-4CEC-8D37-DFC020CA87CB",
        "Fuchsia durable mutable encrypted system data",
    ),
    ("DC76DDA9-5AC1-491C-AF42-A82591580C0D", "Android data"),
    ("DD7C91E9-38C9-45C5-8A12-4A80F7E14057", "Android PG2FS"),
    (
        "DE30CC86-1F4A-4A31-93C4-66F147D33E05",
        "Fuchsia Zircon boot image (slot A)",
    ),
    ("DE7D4029-0F5B-41C8-AE7E-F6C023A02B33", "Android keystore"),
    ("DE94BBA4-06D1-4D40-A16A-BFD50179D6AC", "Windows RE"),
    ("DEA0BA2C-CBDD-4805-B4F9-F428251C3E98", "Android SBL1"),
    ("DF24E5ED-8C96-4B86-B00B-79667DC6DE11", "Android spare1"),
    (
        "DF3300CE-D69F-4C92-978C-9BFB0F38D820",
        "Linux ARM64 root verity",
    ),
    ("E1A6A689-0C8D-4CC6-B4E8-55A4320FBD8A", "Android QHEE/hyp"),
    ("E2802D54-0545-E8A1-A1E8-C7A3E245ACD4", "Android misc 2"),
    ("E2A1E728-32E3-11D6-A682-7B03A0000000", "HP-UX service"),
    ("E3C9E316-0B5C-4DB8-817D-F92DF00215AE", "Microsoft reserved"),
    ("E6D6D379-F507-44C2-A23C-238F2A3DF928", "Linux LVM"),
    ("E6E98DA2-E22A-4D12-AB33-169E7DEAA507", "Android APDP"),
    (
        "E75CAF8F-F680-4CEE-AFA3-B001E56EFC2D",
        "Windows Storage Spaces",
    ),
    ("EBBEADAF-22C9-E33B-8F5D-0E81686A68CB", "Android modem ST1"),
    ("EBC597D0-2053-4B15-8B64-E0AAC75F4DB1", "Android persistent"),
    (
        "EBD0A0A2-B9E5-4433-87C0-68B6B72699C7",
        "Microsoft basic data",
    ),
    (
        "EC6D6385-E346-45DC-BE91-DA2A7C8B3261",
        "Ceph multipath block DB",
    ),
    ("ED9E8101-05FA-46B7-82AA-8D58770D200B", "Android MSADP"),
    ("EF32A33B-A409-486C-9141-9FFB711F6266", "Android misc"),
    (
        "F4019732-066E-4E12-8273-346C5641494F",
        "Sony system partition",
    ),
    (
        "F95D940E-CABA-4578-9B93-BB6C90F29D3E",
        "Fuchsia factory ro system data",
    ),
    (
        "FA709C7E-65B1-4593-BFD5-E71D61DE9B02",
        "Apple SoftRAID Volume",
    ),
    (
        "FB3AABF9-D25F-47CC-BF5E-721D1816496B",
        "Ceph lockbox for dm-crypt keys",
    ),
    ("FE3A2A5D-4F32-41A7-B725-ACCC3285A309", "ChromeOS kernel"),
    (
        "FE8A2634-5E2E-46BA-99E3-3A192091A350",
        "Fuchsia boot loader (slot A/B/R)",
    ),
];

/// MBR partition type bytes and their names (sorted by byte).
const MBR_TYPES: &[(u8, &str)] = &[
    (0x00, "Empty"),
    (0x01, "FAT12"),
    (0x02, "XENIX root"),
    (0x03, "XENIX usr"),
    (0x04, "FAT16 <32M"),
    (0x05, "Extended"),
    (0x06, "FAT16"),
    (0x07, "HPFS/NTFS/exFAT"),
    (0x08, "AIX"),
    (0x09, "AIX bootable"),
    (0x0a, "OS/2 Boot Manager"),
    (0x0b, "W95 FAT32"),
    (0x0c, "W95 FAT32 (LBA)"),
    (0x0e, "W95 FAT16 (LBA)"),
    (0x0f, "W95 Ext'd (LBA)"),
    (0x10, "OPUS"),
    (0x11, "Hidden FAT12"),
    (0x12, "Compaq diagnostics"),
    (0x14, "Hidden FAT16 <32M"),
    (0x16, "Hidden FAT16"),
    (0x17, "Hidden HPFS/NTFS"),
    (0x18, "AST SmartSleep"),
    (0x1b, "Hidden W95 FAT32"),
    (0x1c, "Hidden W95 FAT32 (LBA)"),
    (0x1e, "Hidden W95 FAT16 (LBA)"),
    (0x24, "NEC DOS"),
    (0x27, "Hidden NTFS WinRE"),
    (0x39, "Plan 9"),
    (0x3c, "PartitionMagic recovery"),
    (0x40, "Venix 80286"),
    (0x41, "PPC PReP Boot"),
    (0x42, "SFS"),
    (0x4d, "QNX4.x"),
    (0x4e, "QNX4.x 2nd part"),
    (0x4f, "QNX4.x 3rd part"),
    (0x50, "OnTrack DM"),
    (0x51, "OnTrack DM6 Aux1"),
    (0x52, "CP/M"),
    (0x53, "OnTrack DM6 Aux3"),
    (0x54, "OnTrackDM6"),
    (0x55, "EZ-Drive"),
    (0x56, "Golden Bow"),
    (0x5c, "Priam Edisk"),
    (0x61, "SpeedStor"),
    (0x63, "GNU HURD or SysV"),
    (0x64, "Novell Netware 286"),
    (0x65, "Novell Netware 386"),
    (0x70, "DiskSecure Multi-Boot"),
    (0x75, "PC/IX"),
    (0x80, "Old Minix"),
    (0x81, "Minix / old Linux"),
    (0x82, "Linux swap / Solaris"),
    (0x83, "Linux"),
    (0x84, "OS/2 hidden or Intel hibernation"),
    (0x85, "Linux extended"),
    (0x86, "NTFS volume set"),
    (0x87, "NTFS volume set"),
    (0x88, "Linux plaintext"),
    (0x8e, "Linux LVM"),
    (0x93, "Amoeba"),
    (0x94, "Amoeba BBT"),
    (0x9f, "BSD/OS"),
    (0xa0, "IBM Thinkpad hibernation"),
    (0xa5, "FreeBSD"),
    (0xa6, "OpenBSD"),
    (0xa7, "NeXTSTEP"),
    (0xa8, "Darwin UFS"),
    (0xa9, "NetBSD"),
    (0xab, "Darwin boot"),
    (0xaf, "HFS / HFS+"),
    (0xb7, "BSDI fs"),
    (0xb8, "BSDI swap"),
    (0xbb, "Boot Wizard hidden"),
    (0xbc, "Acronis FAT32 LBA"),
    (0xbe, "Solaris boot"),
    (0xbf, "Solaris"),
    (0xc1, "DRDOS/sec (FAT-12)"),
    (0xc4, "DRDOS/sec (FAT-16 < 32M)"),
    (0xc6, "DRDOS/sec (FAT-16)"),
    (0xc7, "Syrinx"),
    (0xda, "Non-FS data"),
    (0xdb, "CP/M / CTOS / ..."),
    (0xde, "Dell Utility"),
    (0xdf, "BootIt"),
    (0xe1, "DOS access"),
    (0xe3, "DOS R/O"),
    (0xe4, "SpeedStor"),
    (0xea, "Linux extended boot"),
    (0xeb, "BeOS fs"),
    (0xee, "GPT"),
    (0xef, "EFI (FAT-12/16/32)"),
    (0xf0, "Linux/PA-RISC boot"),
    (0xf1, "SpeedStor"),
    (0xf2, "DOS secondary"),
    (0xf4, "SpeedStor"),
    (0xf8, "EBBR protective"),
    (0xfb, "VMware VMFS"),
    (0xfc, "VMware VMKCORE"),
    (0xfd, "Linux raid autodetect"),
    (0xfe, "LANstep"),
    (0xff, "BBT"),
];

/// The name of a GPT partition type GUID (upper-case hyphenated form), if known.
pub(crate) fn gpt_type_name(guid_upper: &str) -> Option<&'static str> {
    GPT_TYPES
        .binary_search_by(|(g, _)| (*g).cmp(guid_upper))
        .ok()
        .and_then(|i| GPT_TYPES.get(i))
        .map(|(_, name)| *name)
}

/// The name of an MBR partition type byte, if known.
pub(crate) fn mbr_type_name(byte: u8) -> Option<&'static str> {
    MBR_TYPES
        .binary_search_by(|(b, _)| b.cmp(&byte))
        .ok()
        .and_then(|i| MBR_TYPES.get(i))
        .map(|(_, name)| *name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_and_answer_common_types() {
        assert!(GPT_TYPES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(MBR_TYPES.windows(2).all(|w| w[0].0 < w[1].0));
        let check = |guid: &str, want: &str| assert_eq!(gpt_type_name(guid), Some(want), "{guid}");
        check("0FC63DAF-8483-4772-8E79-3D69D8477DE4", "Linux filesystem");
        check(
            "EBD0A0A2-B9E5-4433-87C0-68B6B72699C7",
            "Microsoft basic data",
        );
        check(
            "C12A7328-F81F-11D2-BA4B-00A0C93EC93B",
            "EFI system partition",
        );
        check("DC76DDA9-5AC1-491C-AF42-A82591580C0D", "Android data");
        assert_eq!(gpt_type_name("01234567-89AB-CDEF-0123-456789ABCDEF"), None);
        assert_eq!(mbr_type_name(0x83), Some("Linux"));
        assert_eq!(mbr_type_name(0x05), Some("Extended"));
        assert_eq!(mbr_type_name(0x0c), Some("W95 FAT32 (LBA)"));
        assert_eq!(mbr_type_name(0x7f), None);
    }
}
