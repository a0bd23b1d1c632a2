//! The Android plugin on the demo disk, a generated disk and plaso's public databases.

use masf_graph::TimeEncoding;

use crate::android_support::{missing_planted, repo, triage};

#[test]
fn demo_android_disk_gives_every_planted_identifier() {
    let disk = repo("tests/fixtures/demo/evidence/blk0_sda.bin");
    let run = triage(&[("src-android", &disk, "Asia/Hong_Kong")]);
    let r = run.report("src-android");
    assert_eq!(r.plugin.as_deref(), Some("android"));
    assert_eq!(r.agent.as_deref(), Some("android-triage"));
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert_eq!(r.tally.rejections, 0);
    assert_eq!(
        run.phenomena("src-android"),
        [
            "partitions | 5 partitions; encrypted: none; unreadable: misc, persist",
            "device | Build properties: SM-G991B",
            "device | Serial number R5CT21XYZ9K",
            "device | SIM 89852120000471108152",
            "accounts | Google account chan.mh@example.net (com.google) in accounts_ce.db",
            "accounts | Google user id of chan.mh@example.net",
            "accounts | Google account chan.mh@example.net (com.google) in accounts_de.db",
            "contacts | Contact Leung YL",
            "contacts | Contact FUNG CC",
            "contacts | Contact Kwok Plumbing",
            "accounts | Google account chan.mh@example.net (com.google) in contacts2.db",
            "calls | Outgoing call to 61234567 (184 s)",
            "calls | Incoming call from +85254321098 (62 s)",
            "calls | Missed call from 61234567 (0 s)",
            "messages | SMS sent to +85261234567",
            "messages | SMS received from +85261234567",
            "messages | SMS received from +85254321098",
            "messages | SMS received from +85261234567",
            "messages | SMS sent to +85254321098",
            "messages | SMS thread 1 with +85261234567",
            "messages | SMS thread 2 with +85254321098",
            "apps | 9 installed packages",
        ]
    );
    assert_eq!(
        run.entities("src-android"),
        [
            "contact:1 [Person] Leung YL: display_name=leung yl, email=yl.leung@example.com, phone=+85261234567",
            "contact:2 [Person] FUNG CC: display_name=fung cc, email=fung.cc@example.org, phone=+85254321098",
            "contact:3 [Person] Kwok Plumbing: display_name=kwok plumbing, phone=+85234567890",
            "device [Device] SM-G991B: iccid=89852120000471108152, serial=R5CT21XYZ9K",
            "owner [Person] device owner: account_id=104857392016473829105, google_account=chan.mh@example.net, phone=+85298765432",
            "wallet:TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2 [Wallet] TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2: wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2",
            "wallet:bc1q7067uww8q52athgrmrdeshcd7cj5x9yfapwezn [Wallet] bc1q7067uww8q52athgrmrdeshcd7cj5x9yfapwezn: wallet=bc1q7067uww8q52athgrmrdeshcd7cj5x9yfapwezn",
        ]
    );
    let unparsed: Vec<(String, String)> = run
        .unparsed("src-android")
        .into_iter()
        .map(|u| (u.artefact, u.reason))
        .collect();
    let zero = "no known signature; all 16 sampled 4 KiB blocks are zero (unused or wiped)";
    assert_eq!(
        unparsed,
        [
            ("partition misc".to_string(), zero.to_string()),
            ("partition persist".to_string(), zero.to_string())
        ]
    );
    assert_eq!(
        missing_planted(&run, "src-android", |_| None),
        Vec::<String>::new()
    );

    // sms._id 4: received at `date`, sent by the other phone at `date_sent`, both Unix ms.
    let sms4 = run
        .all_phenomena("src-android")
        .into_iter()
        .find(|p| p.interpretation.starts_with("sms._id 4 "))
        .expect("sms 4");
    let marks: Vec<(String, TimeEncoding, String)> = sms4
        .times
        .iter()
        .map(|m| {
            (
                sms4.verified_facts[m.fact].value.clone(),
                m.encoding,
                m.description.clone(),
            )
        })
        .collect();
    assert_eq!(
        marks,
        [
            (
                "1739928041000".to_string(),
                TimeEncoding::UnixMillis,
                "Message received".to_string()
            ),
            (
                "1739928037000".to_string(),
                TimeEncoding::UnixMillis,
                "Message sent".to_string()
            ),
        ]
    );
    let values: Vec<&str> = sms4
        .verified_facts
        .iter()
        .map(|f| f.value.as_str())
        .collect();
    assert_eq!(
        values,
        [
            "/data/com.android.providers.telephony/databases/mmssms.db",
            "+85261234567",
            "1739928041000",
            "1739928037000",
            "Got 12,500 from FUNG. 8,000 to your TRC20 tomorrow."
        ]
    );
    // Every phenomenon cites only this agent's calls in this task.
    for p in run.all_phenomena("src-android") {
        assert_eq!(p.agent, "android-triage");
        assert_eq!(p.task_id, "triage/src-android");
        assert!(p.warnings.is_empty(), "{} {:?}", p.title, p.warnings);
    }
}
