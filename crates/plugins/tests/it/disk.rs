//! The disk plugin on the demo USB stick and a generated FAT image.

use masf_graph::{FactType, TimeEncoding};

use crate::android_support::{missing_planted, repo, triage};

/// Planted values no identity observation is expected for: names written inside body text
/// (finding person names in prose is not identifier extraction). A transaction hash has no
/// identifier type: it must be among the facts (the deleted draft's body gives it).
pub fn not_observable(planted: &serde_json::Value) -> Option<&'static str> {
    let read = planted["where"]["read"].as_str().unwrap_or_default();
    match planted["type"].as_str().unwrap_or_default() {
        "name" if read == "docx_text" || read == "text" => Some("a name in body text"),
        _ => None,
    }
}

#[test]
fn demo_usb_stick_gives_every_planted_identifier() {
    let usb = repo("tests/fixtures/demo/evidence/usb.E01");
    let run = triage(&[("src-usb", &usb, "Asia/Hong_Kong", Some("HK"))]);
    let r = run.report("src-usb");
    assert_eq!(r.plugin.as_deref(), Some("disk"));
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert!(run.unparsed("src-usb").is_empty());
    assert_eq!(
        run.phenomena("src-usb"),
        [
            "volumes | Volume fat32 labelled LEUNG_USB",
            "phone-region | Phone numbers of this source are read as HK numbers",
            "inventory | Inventory: 6 files (documents 2, images 2, text 2; deleted 1)",
            "files | Deleted files: 1",
            "documents | Identifiers in /notes.txt",
            "documents | Amounts and accounts in /notes.txt: 1 amount",
            "images | EXIF of /DCIM/IMG_0412.JPG",
            "images | EXIF of /DCIM/IMG_0415.JPG",
            "documents | Document metadata of /Documents/Invoice_2025-017.pdf",
            "documents | Amounts and accounts in /Documents/Invoice_2025-017.pdf: 2 amounts",
            "documents | Document metadata of /Documents/Payment_Instructions.docx",
            "documents | Identifiers in /Documents/Payment_Instructions.docx",
            "documents | Amounts and accounts in /Documents/Payment_Instructions.docx: 2 amounts",
            "documents | Amounts and accounts in /Documents/transfer_log_draft.txt: 2 amounts, 1 transaction hash",
        ]
    );
    assert_eq!(
        run.entities("src-usb"),
        [
            "author:CHAN MH [Person] CHAN MH: display_name=chan mh",
            "author:LEUNG YL [Person] LEUNG YL: display_name=leung yl",
            "camera:052031004512 [Device] Canon EOS 200D: serial=052031004512",
            "document:/Documents/Payment_Instructions.docx [Person] mentioned in /Documents/Payment_Instructions.docx: email=yl.leung@example.com, phone=+85298765432",
            // "USDT (ERC20) receive: 0x…" beside LEUNG's own number and e-mail: the notes'
            // subject holds it; "Forward 8,000.00 USDT to CHAN MH, TRC20 address T…": the
            // party named before it does.
            "document:/notes.txt [Person] mentioned in /notes.txt: email=yl.leung@example.com, phone=+85261234567, wallet=0x1850ce0e73407a9997c467babc60fe887c567625",
            "named:CHAN MH [Person] CHAN MH: display_name=chan mh, wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2",
            "wallet:0x1850ce0e73407a9997c467babc60fe887c567625 [Wallet] 0x1850ce0e73407a9997c467babc60fe887c567625: wallet=0x1850ce0e73407a9997c467babc60fe887c567625",
            "wallet:TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2 [Wallet] TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2: wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2",
        ]
    );
    assert_eq!(
        missing_planted(&run, "src-usb", not_observable),
        Vec::<String>::new()
    );
    let all = run.all_phenomena("src-usb");
    // Amounts and the transaction hash in the bodies (issue 17): the invoice's rate ("7.80 HKD
    // per USDT") is no amount; the deleted draft still read gives the planted hash.
    let amounts = |prefix: &str| -> Vec<&str> {
        all.iter()
            .find(|p| p.title.starts_with(prefix))
            .expect(prefix)
            .verified_facts
            .iter()
            .skip(1)
            .map(|f| f.value.as_str())
            .collect()
    };
    assert_eq!(
        amounts("Amounts and accounts in /Documents/Invoice_2025-017.pdf"),
        ["HKD 97,500.00", "12,500.00 USDT"]
    );
    assert_eq!(
        amounts("Amounts and accounts in /Documents/Payment_Instructions.docx"),
        ["12,500.00 USDT", "8,000.00 USDT"]
    );
    assert_eq!(
        amounts("Amounts and accounts in /Documents/transfer_log_draft.txt"),
        [
            "+12,500.00 USDT",
            "8,000.00 USDT",
            "0x3b9cb90d2976083178b8cb402112d0381c4957ef01a4a81859902b7a4add0b90"
        ]
    );
    for p in &all {
        assert!(p.warnings.is_empty(), "{} {:?}", p.title, p.warnings);
    }
    let marks = |title: &str| -> Vec<(String, TimeEncoding, String)> {
        let p = all.iter().find(|p| p.title == title).expect(title);
        p.times
            .iter()
            .map(|m| {
                (
                    p.verified_facts[m.fact].value.clone(),
                    m.encoding,
                    m.description.clone(),
                )
            })
            .collect()
    };
    let s = |v: &str| v.to_string();
    // The deleted draft, with its stored FAT times for the timeline.
    let deleted = all
        .iter()
        .find(|p| p.title == "Deleted files: 1")
        .expect("deleted files");
    assert_eq!(
        deleted.verified_facts[0].value,
        "/Documents/transfer_log_draft.txt"
    );
    let draft_marks = marks("Deleted files: 1");
    assert!(!draft_marks.is_empty());
    for (value, encoding, _) in &draft_marks {
        assert!(value.ends_with("(local)"), "{value}");
        assert_eq!(*encoding, TimeEncoding::FatLocal);
    }
    assert_eq!(draft_marks[0].2, "Content Modification Time");
    assert_eq!(
        marks("Document metadata of /Documents/Payment_Instructions.docx"),
        [
            (
                s("2025-02-10T06:05:00Z"),
                TimeEncoding::Iso8601,
                s("Creation Time")
            ),
            (
                s("2025-02-11T01:30:00Z"),
                TimeEncoding::Iso8601,
                s("Content Modification Time")
            ),
        ]
    );
    assert_eq!(
        marks("EXIF of /DCIM/IMG_0415.JPG")[0],
        (
            s("2025:02:17 16:05:42"),
            TimeEncoding::LocalText,
            s("Original Time")
        )
    );
    // One inventory: its facts count the files and cite the table, whose /notes.txt row has
    // the SHA-256 sha256sum gives for the stick's /notes.txt and its FAT times.
    let inventory = all
        .iter()
        .find(|p| p.category == "inventory")
        .expect("inventory");
    let values: Vec<&str> = inventory
        .verified_facts
        .iter()
        .map(|f| f.value.as_str())
        .collect();
    assert_eq!(
        values,
        [
            "6 files",
            "1 deleted",
            "6 files listed; end of the inventory"
        ]
    );
    let outputs = run.outputs("src-usb");
    let tables: Vec<&String> = outputs
        .iter()
        .filter(|(tool, _, _)| tool == "inventory")
        .map(|(_, _, text)| text)
        .collect();
    assert_eq!(tables.len(), 1);
    let notes = tables[0]
        .lines()
        .find(|l| l.ends_with("\t/notes.txt"))
        .expect("the /notes.txt row");
    assert_eq!(
        notes.split('\t').nth(1),
        Some("f4962640280249654b23f60d870d95d4e7c2b33bea54198aa94fc28795f9ff5e"),
        "{notes}"
    );
    assert!(
        notes.contains("modified=2025-02-19T09:12:34.00 (local)"),
        "{notes}"
    );
    let draft = tables[0]
        .lines()
        .find(|l| l.ends_with("\t/Documents/transfer_log_draft.txt"))
        .expect("the deleted draft's row");
    assert!(
        draft.contains("\t-\t") && draft.contains("\tdeleted\t"),
        "{draft}"
    );
}

/// The generated stick (tests/fixtures/disk/generate.sh): a docx with core/app.xml, a PDF whose
/// text is in a FlateDecode stream, a JPEG with EXIF, a text file with wallets, and a `.docx`
/// that is plain text (noted unparsed; everything else is still read).
#[test]
fn generated_stick() {
    let img = repo("tests/fixtures/disk/stick.img");
    let run = triage(&[("s", &img, "Asia/Hong_Kong", Some("HK"))]);
    assert_eq!(run.report("s").plugin.as_deref(), Some("disk"));
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert_eq!(
        run.phenomena("s"),
        [
            "volumes | Volume fat16 labelled EVIDENCE",
            "phone-region | Phone numbers of this source are read as HK numbers",
            "inventory | Inventory: 6 files (documents 3, images 1, text 2; deleted 0)",
            "documents | Identifiers in /wallets.txt",
            "images | EXIF of /DCIM/photo.jpg",
            "documents | Document metadata of /Docs/report.docx",
            "documents | Identifiers in /Docs/report.docx",
            "documents | Document metadata of /Docs/scan.pdf",
            "documents | Identifiers in /Docs/scan.pdf",
        ]
    );
    assert_eq!(
        run.entities("s"),
        [
            "author:HO Ka Yan [Person] HO Ka Yan: display_name=ho ka yan",
            // "Settle in ETH to 0xde70…" in the document WONG Tai Sin created: nothing says
            // whose, so a light claim of its author.
            "author:WONG Tai Sin [Person] WONG Tai Sin: display_name=wong tai sin, wallet=0xde709f2102306220921060314715629080e2fb77",
            "camera:052031009999 [Device] Canon EOS 200D: serial=052031009999",
            "document:/Docs/report.docx [Person] mentioned in /Docs/report.docx: email=courier.desk@example.org, phone=+85291234567",
            "document:/Docs/scan.pdf [Person] mentioned in /Docs/scan.pdf: phone=+85262223333",
            "wallet:0xde709f2102306220921060314715629080e2fb77 [Wallet] 0xde709f2102306220921060314715629080e2fb77: wallet=0xde709f2102306220921060314715629080e2fb77",
            "wallet:1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 [Wallet] 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2: wallet=1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
            "wallet:TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2 [Wallet] TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2: wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2",
        ]
    );
    let unparsed: Vec<String> = run
        .unparsed("s")
        .into_iter()
        .map(|u| format!("{}: {}", u.artefact, u.reason))
        .collect();
    assert_eq!(
        unparsed,
        [
            "/Docs/fake.docx: doc_metadata failed: not applicable: /Docs/fake.docx: not an Office, PDF, JPEG or TIFF document"
        ]
    );
    let all = run.all_phenomena("s");
    let values = |title: &str| -> Vec<String> {
        all.iter()
            .find(|p| p.title == title)
            .expect(title)
            .verified_facts
            .iter()
            .map(|f| f.value.clone())
            .collect()
    };
    assert_eq!(
        values("Document metadata of /Docs/report.docx"),
        [
            "/Docs/report.docx",
            "Courier report",
            "WONG Tai Sin",
            "HO Ka Yan",
            "Microsoft Office Word",
            "Harbour Couriers",
            "2024-01-30T02:00:00Z",
            "2024-01-31T09:15:00Z"
        ]
    );
    assert_eq!(
        values("Document metadata of /Docs/scan.pdf"),
        [
            "/Docs/scan.pdf",
            "Delivery note",
            "HO Ka Yan",
            "Scanner 2.1",
            "D:20240131091500+08'00'"
        ]
    );
    assert_eq!(
        values("Identifiers in /Docs/scan.pdf"),
        ["/Docs/scan.pdf", "+852 6222 3333"]
    );
    // The date and amount lines of wallets.txt give no phone number.
    assert_eq!(
        values("Identifiers in /wallets.txt"),
        [
            "/wallets.txt",
            "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
            "TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2"
        ]
    );
    let exif = all
        .iter()
        .find(|p| p.title == "EXIF of /DCIM/photo.jpg")
        .expect("exif");
    let m = &exif.times[0];
    assert_eq!(
        (
            exif.verified_facts[m.fact].value.as_str(),
            m.encoding,
            m.description.as_str()
        ),
        (
            "2024:01:30 14:05:09",
            TimeEncoding::LocalText,
            "Original Time"
        )
    );
    assert_eq!(exif.verified_facts[3].value, "052031009999");
    for p in &all {
        assert!(p.warnings.is_empty(), "{} {:?}", p.title, p.warnings);
    }
}

/// tests/fixtures/docmoney (generate.py): a folder with no Android or iOS layout, so the disk
/// plugin's generic tree triage reads it. A docx and a PDF whose bodies hold amounts with their
/// currency, IBANs (one with wrong check digits) and transaction hashes, a letter that holds none,
/// and a text file (issue 17).
#[test]
fn document_bodies_give_amounts_ibans_and_hashes() {
    let dir = repo("tests/fixtures/docmoney/evidence");
    let run = triage(&[("docs", &dir, "Asia/Hong_Kong", Some("HK"))]);
    assert_eq!(run.report("docs").plugin.as_deref(), Some("disk"));
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert!(run.unparsed("docs").is_empty());
    // The letter holds no amount, account or identifier: its metadata only.
    assert_eq!(
        run.phenomena("docs"),
        [
            "phone-region | Phone numbers of this source are read as HK numbers",
            "inventory | Inventory: 4 files (documents 3, text 1; deleted 0)",
            "documents | Document metadata of /Contracts/Letter.docx",
            "documents | Document metadata of /Contracts/Remittance.pdf",
            "documents | Identifiers in /Contracts/Remittance.pdf",
            "documents | Amounts and accounts in /Contracts/Remittance.pdf: 2 amounts, 1 IBAN, 1 transaction hash",
            "documents | Document metadata of /Contracts/Settlement.docx",
            "documents | Identifiers in /Contracts/Settlement.docx",
            "documents | Amounts and accounts in /Contracts/Settlement.docx: 4 amounts, 2 IBANs, 1 transaction hash",
            "documents | Identifiers in /notes/transfer.txt",
            "documents | Amounts and accounts in /notes/transfer.txt: 1 amount, 1 IBAN",
        ]
    );
    let all = run.all_phenomena("docs");
    for p in &all {
        assert!(p.warnings.is_empty(), "{} {:?}", p.title, p.warnings);
    }
    let facts = |prefix: &str| -> Vec<(FactType, String)> {
        all.iter()
            .find(|p| p.title.starts_with(prefix))
            .expect(prefix)
            .verified_facts
            .iter()
            .map(|f| (f.fact_type, f.value.clone()))
            .collect()
    };
    let f = |t: FactType, v: &str| (t, v.to_string());
    // The rate "7.80 HKD / USDT" is no amount; GB12 … has wrong check digits.
    assert_eq!(
        facts("Amounts and accounts in /Contracts/Settlement.docx"),
        [
            f(FactType::Path, "/Contracts/Settlement.docx"),
            f(FactType::Amount, "HKD 97,500.00"),
            f(FactType::Amount, "USDT 12,500"),
            f(FactType::Amount, "¥3,000"),
            f(FactType::Amount, "€ 1.250,00"),
            f(FactType::Account, "GB82 WEST 1234 5698 7654 32"),
            f(FactType::Account, "DE89 3704 0044 0532 0130 00"),
            f(
                FactType::Hash,
                "7c1f0e2d3b4a5968778695a4b3c2d1e0f1e2d3c4b5a69788796a5b4c3d2e1f00"
            ),
        ]
    );
    // DE88 … has a changed check digit.
    assert_eq!(
        facts("Amounts and accounts in /Contracts/Remittance.pdf"),
        [
            f(FactType::Path, "/Contracts/Remittance.pdf"),
            f(FactType::Amount, "HKD 97,500.00"),
            f(FactType::Amount, "¥3,000"),
            f(FactType::Account, "DE89 3704 0044 0532 0130 00"),
            f(
                FactType::Hash,
                "0x3b9cb90d2976083178b8cb402112d0381c4957ef01a4a81859902b7a4add0b90"
            ),
        ]
    );
    assert_eq!(
        facts("Amounts and accounts in /notes/transfer.txt"),
        [
            f(FactType::Path, "/notes/transfer.txt"),
            f(FactType::Amount, "USDT 12,500"),
            f(FactType::Account, "gb82 west 1234 5698 7654 32"),
        ]
    );
    let settlement = all
        .iter()
        .find(|p| {
            p.title
                .starts_with("Amounts and accounts in /Contracts/Settlement.docx")
        })
        .expect("settlement");
    assert!(
        settlement
            .interpretation
            .contains("GB82WEST12345698765432 (written \"GB82 WEST 1234 5698 7654 32\")"),
        "{}",
        settlement.interpretation
    );
    // The wallet and phone as before, beside the amounts.
    assert_eq!(
        facts("Identifiers in /Contracts/Settlement.docx"),
        [
            f(FactType::Path, "/Contracts/Settlement.docx"),
            f(FactType::Wallet, "TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2"),
            f(FactType::Phone, "9123 4567"),
        ]
    );
    assert_eq!(
        facts("Identifiers in /Contracts/Remittance.pdf"),
        [
            f(FactType::Path, "/Contracts/Remittance.pdf"),
            f(FactType::Phone, "+852 6123 4567"),
        ]
    );
    // Grounded: every amount, account and hash is written verbatim in the doc_text or
    // read_text output it cites, and the refused IBANs are nowhere among the facts.
    let outputs = run.outputs("docs");
    for p in all
        .iter()
        .filter(|p| p.title.starts_with("Amounts and accounts"))
    {
        for fact in p
            .verified_facts
            .iter()
            .filter(|f| f.fact_type != FactType::Path)
        {
            assert!(
                outputs.iter().any(|(tool, _, text)| {
                    (tool == "doc_text" || tool == "read_text") && text.contains(&fact.value)
                }),
                "{} not in a text output",
                fact.value
            );
        }
    }
    let every: Vec<&str> = all
        .iter()
        .flat_map(|p| p.verified_facts.iter().map(|f| f.value.as_str()))
        .collect();
    for refused in [
        "GB12 WEST 1234 5698 7654 32",
        "DE88 3704 0044 0532 0130 00",
        "7.80 HKD",
    ] {
        assert!(!every.iter().any(|v| v.contains(refused)), "{refused}");
    }
}
