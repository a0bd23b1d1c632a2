//! The archive plugin: a tar of documents and a zip of an Android data tree.

use crate::android_support::{repo, triage};

/// docs.tar (tests/fixtures/disk/generate.sh): the disk plugin's tree handling on a tar, with
/// the tar's UTC member times as ISO 8601.
#[test]
fn tar_of_documents() {
    let tar = repo("tests/fixtures/disk/docs.tar");
    let run = triage(&[("t", &tar, "Asia/Hong_Kong", Some("HK"))]);
    let r = run.report("t");
    assert_eq!(r.plugin.as_deref(), Some("archive"));
    assert_eq!(r.agent.as_deref(), Some("archive-triage"));
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert!(run.unparsed("t").is_empty());
    assert_eq!(
        run.phenomena("t"),
        [
            "phone-region | Phone numbers of this source are read as HK numbers",
            "inventory | Inventory: 2 files (documents 1, text 1; deleted 0)",
            "documents | Identifiers in /wallets.txt",
            "documents | Document metadata of /Docs/report.docx",
            "documents | Identifiers in /Docs/report.docx",
        ]
    );
    assert_eq!(
        run.entities("t"),
        [
            "author:HO Ka Yan [Person] HO Ka Yan: display_name=ho ka yan",
            // The stick's docx, as on the stick: a light claim of its author.
            "author:WONG Tai Sin [Person] WONG Tai Sin: display_name=wong tai sin, wallet=0xde709f2102306220921060314715629080e2fb77",
            "document:/Docs/report.docx [Person] mentioned in /Docs/report.docx: email=courier.desk@example.org, phone=+85291234567",
            "wallet:0xde709f2102306220921060314715629080e2fb77 [Wallet] 0xde709f2102306220921060314715629080e2fb77: wallet=0xde709f2102306220921060314715629080e2fb77",
            "wallet:1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 [Wallet] 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2: wallet=1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
            "wallet:TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2 [Wallet] TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2: wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2",
        ]
    );
    // The inventory's table row of /wallets.txt: the same bytes as on the stick (the same
    // SHA-256) and the tar's UTC member time.
    let outputs = run.outputs("t");
    let row = outputs
        .iter()
        .filter(|(tool, _, _)| tool == "inventory")
        .flat_map(|(_, _, text)| text.lines())
        .find(|l| l.ends_with("\t/wallets.txt"))
        .expect("the /wallets.txt row")
        .to_string();
    let cols: Vec<&str> = row.split('\t').collect();
    assert_eq!(
        cols[1],
        "1902e66b1e0b770f278060fe6f232e96749ce1d7dea63b372fac1ded7723f0fe"
    );
    assert!(cols[4].contains("modified=2024-01-31T02:22:14Z"), "{row}");
}

/// android_tree.zip (tests/fixtures/android/generate.sh): an Android data tree in a zip is read
/// by the Android parsers (SMS, threads, contacts) and inventoried like any tree.
#[test]
fn zip_of_an_android_tree() {
    let zip = repo("tests/fixtures/android/android_tree.zip");
    let run = triage(&[("z", &zip, "Asia/Hong_Kong", Some("HK"))]);
    // claimed by the Android directories it holds (data/com.android.providers.*)
    assert_eq!(run.report("z").plugin.as_deref(), Some("android"));
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert!(run.unparsed("z").is_empty());
    assert_eq!(
        run.phenomena("z"),
        [
            "phone-region | Phone numbers of this source are read as HK numbers",
            "contacts | Contact Wong Tai Sin",
            "contacts | Contact Ho Ka Yan",
            "accounts | Google account owner.ho@example.com (com.google) in contacts2.db",
            "messages | SMS received from +85291112222",
            "messages | SMS sent to +85291112222",
            "messages | SMS thread 1 with +85291112222",
            "files | Artefact file /data/data/com.android.providers.contacts/databases/contacts2.db",
            "files | Artefact file /data/data/com.android.providers.telephony/databases/mmssms.db",
            // the Android plugin reads the rest of the tree as the generic triage does
            "inventory | Inventory: 3 files (databases 2, text 1; deleted 0)",
            "documents | Identifiers in /sdcard/Documents/courier.txt",
        ]
    );
    assert_eq!(
        run.entities("z"),
        [
            // Wong Tai Sin's number sent the ETH address by SMS (received): his claim on it.
            "contact:1 [Person] Wong Tai Sin: display_name=wong tai sin, email=wts@example.org, phone=+85291112222, wallet=0xde709f2102306220921060314715629080e2fb77",
            "contact:2 [Person] Ho Ka Yan: display_name=ho ka yan, phone=+85253334444",
            "document:/sdcard/Documents/courier.txt [Person] mentioned in /sdcard/Documents/courier.txt: phone=+85253334444",
            "owner [Person] device owner: google_account=owner.ho@example.com",
            "wallet:0xde709f2102306220921060314715629080e2fb77 [Wallet] 0xde709f2102306220921060314715629080e2fb77: wallet=0xde709f2102306220921060314715629080e2fb77",
            "wallet:1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 [Wallet] 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2: wallet=1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
        ]
    );
    for p in run.all_phenomena("z") {
        assert!(p.warnings.is_empty(), "{} {:?}", p.title, p.warnings);
    }
}
