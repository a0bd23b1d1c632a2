//! Merging the sources into one order, and the filters.

use std::collections::BTreeSet;

use masf_graph::FactType;
use masf_graph::TimeEncoding::*;
use masf_report::timeline::{ActorFilter, Filter, Flag, Timeline, build, parse_bound};

use crate::support::{Graph, Ph, source};

/// Three sources in three encodings; one value unconvertible; a London source with a fold.
fn demo_like() -> (Graph, Vec<String>) {
    let mut g = Graph::new();
    let ids = vec![
        // 2025-02-18T13:40:00Z
        g.record(Ph {
            source: "src-iphone",
            title: "Message from yl.leung@example.com",
            times: &[("761578800000000000", AppleNanos, "Message received")],
            facts: &[(FactType::Email, "yl.leung@example.com")],
        }),
        // 2025-02-18T14:10:20Z, and an unset FAT date of the same file
        g.record(Ph {
            source: "src-usb",
            title: "/Documents/transfer_log_draft.txt (deleted)",
            times: &[
                (
                    "2025-02-18T22:10:20.00 (local)",
                    FatLocal,
                    "Content Modification Time",
                ),
                ("unset", FatLocal, "Creation Time"),
            ],
            facts: &[(FactType::Path, "/Documents/transfer_log_draft.txt")],
        }),
        // 2025-02-12T12:15:30Z, a local number of Leung
        g.record(Ph {
            source: "src-android",
            title: "SMS from 6123 4567",
            times: &[("1739362530000", UnixMillis, "Message received")],
            facts: &[(FactType::Phone, "6123 4567")],
        }),
        // 2025-02-18T13:40:00Z again: a tie with the iPhone message
        g.record(Ph {
            source: "src-android",
            title: "SMS to 98765432",
            times: &[("1739886000000", UnixMillis, "Message sent")],
            facts: &[(FactType::Phone, "98765432")],
        }),
        // a fold in London: 2025-10-26T00:30:00Z or 01:30:00Z
        g.record(Ph {
            source: "src-laptop",
            title: "Document saved",
            times: &[(
                "2025-10-26 01:30:00",
                LocalText,
                "Content Modification Time",
            )],
            facts: &[],
        }),
    ];
    (g, ids)
}

fn timeline(g: &Graph) -> Timeline {
    build(
        &g.state,
        &[
            source("src-iphone", "Asia/Hong_Kong"),
            source("src-usb", "Asia/Hong_Kong"),
            source("src-android", "Asia/Hong_Kong"),
            source("src-laptop", "Europe/London"),
        ],
        "Asia/Hong_Kong",
    )
}

fn rows(t: &Timeline) -> Vec<String> {
    t.entries
        .iter()
        .map(|e| {
            format!(
                "{} {} {} {}",
                e.utc.as_deref().unwrap_or("-"),
                e.source_id,
                e.timestamp_desc,
                e.flag.map_or("", |f| f.as_str())
            )
        })
        .collect()
}

#[test]
fn sources_merge_into_one_order_with_stable_ties_and_nothing_dropped() {
    let (g, _) = demo_like();
    let t = timeline(&g);
    assert_eq!(
        rows(&t),
        [
            "2025-02-12T12:15:30Z src-android Message received ",
            // same instant: source id breaks the tie
            "2025-02-18T13:40:00Z src-android Message sent ",
            "2025-02-18T13:40:00Z src-iphone Message received ",
            "2025-02-18T14:10:20Z src-usb Content Modification Time ",
            "2025-10-26T00:30:00Z src-laptop Content Modification Time dst_fold",
            // unconvertible: kept, last
            "- src-usb Creation Time unconvertible",
        ]
    );
    assert_eq!((t.unconvertible, t.ambiguous), (1, 1));

    let iphone = &t.entries[2];
    assert_eq!(
        iphone.case_time.as_deref(),
        Some("2025-02-18T21:40:00+08:00")
    );
    assert_eq!(
        iphone.datetime.as_deref(),
        Some("2025-02-18T13:40:00.000000+00:00")
    );
    assert_eq!(iphone.timestamp, Some(1_739_886_000_000_000));
    assert_eq!(&*iphone.raw_encoding, "apple_nanos");
    assert_eq!(&*iphone.zone, "UTC");
    assert_eq!(&*iphone.message, "Message from yl.leung@example.com");
    assert_eq!(&*iphone.source, "src-iphone label");
    let context: Vec<_> = iphone.context.iter().collect();
    assert_eq!(context.len(), 1);
    assert_eq!(context[0].fact_type, "email");

    let usb = &t.entries[3];
    assert_eq!(&*usb.zone, "Asia/Hong_Kong");
    assert_eq!(&*usb.raw_value, "2025-02-18T22:10:20.00 (local)");
    // the other time of the same phenomenon is context, not itself
    assert_eq!(
        usb.context
            .iter()
            .map(|c| c.value.as_str())
            .collect::<Vec<_>>(),
        ["unset", "/Documents/transfer_log_draft.txt"]
    );

    let fold = &t.entries[4];
    assert_eq!(fold.flag, Some(Flag::DstFold));
    assert_eq!(fold.alternative.as_deref(), Some("2025-10-26T01:30:00Z"));
    assert!(fold.note.as_deref().unwrap().contains("occurred twice"));

    let unset = &t.entries[5];
    assert_eq!(unset.datetime, None);
    assert_eq!(unset.timestamp, None);
    assert!(unset.note.as_deref().unwrap().contains("unset"));
}

#[test]
fn the_order_does_not_depend_on_recording_order() {
    let (g, _) = demo_like();
    let mut reversed = Graph::new();
    // the same phenomena recorded the other way round
    for (source, title, raw, enc, desc) in [
        (
            "src-android",
            "SMS to 98765432",
            "1739886000000",
            UnixMillis,
            "Message sent",
        ),
        (
            "src-iphone",
            "Message",
            "761578800000000000",
            AppleNanos,
            "Message received",
        ),
    ] {
        reversed.record(Ph {
            source,
            title,
            times: &[(raw, enc, desc)],
            facts: &[],
        });
    }
    let a: Vec<_> = timeline(&g)
        .entries
        .into_iter()
        .filter(|e| e.utc.as_deref() == Some("2025-02-18T13:40:00Z"))
        .map(|e| e.source_id.to_string())
        .collect();
    let b: Vec<_> = timeline(&reversed)
        .entries
        .into_iter()
        .map(|e| e.source_id.to_string())
        .collect();
    assert_eq!(a, b);
    assert_eq!(a, ["src-android", "src-iphone"]);
}

#[test]
fn naive_times_of_a_source_missing_from_the_case_are_flagged_not_guessed() {
    let (g, _) = demo_like();
    let t = build(&g.state, &[source("src-iphone", "Asia/Hong_Kong")], "UTC");
    let usb: Vec<_> = t
        .entries
        .iter()
        .filter(|e| &*e.source_id == "src-usb")
        .collect();
    assert!(usb.iter().all(|e| e.flag == Some(Flag::Unconvertible)));
    assert!(usb[0].note.as_deref().unwrap().contains("not in the case"));
    // epoch values need no zone
    let android = t
        .entries
        .iter()
        .find(|e| &*e.source_id == "src-android")
        .unwrap();
    assert_eq!(android.flag, None);
    assert_eq!(
        android.case_time.as_deref(),
        Some("2025-02-12T12:15:30+00:00")
    );
}

#[test]
fn filters_by_source_range_and_actor() {
    let (g, ids) = demo_like();
    let t = timeline(&g);
    let sources = |f: &Filter| -> Vec<String> {
        t.clone()
            .filtered(f)
            .entries
            .into_iter()
            .map(|e| format!("{}:{}", e.source_id, e.timestamp_desc))
            .collect()
    };

    let only_usb = Filter {
        sources: BTreeSet::from(["src-usb".to_string()]),
        ..Filter::default()
    };
    assert_eq!(
        sources(&only_usb),
        ["src-usb:Content Modification Time", "src-usb:Creation Time"]
    );
    let filtered = t.clone().filtered(&only_usb);
    assert_eq!((filtered.unconvertible, filtered.ambiguous), (1, 0));

    // [from, to): the bound instant itself is in, `to` is out; the unconvertible entry stays.
    let range = Filter {
        from: Some(parse_bound("2025-02-18 21:40", "Asia/Hong_Kong").unwrap()),
        to: Some(parse_bound("2025-02-18T14:10:20Z", "Asia/Hong_Kong").unwrap()),
        ..Filter::default()
    };
    assert_eq!(
        sources(&range),
        [
            "src-android:Message sent",
            "src-iphone:Message received",
            "src-usb:Creation Time"
        ]
    );

    // Leung: the USB is his (every entry), and his phone in any written form.
    let leung = Filter {
        actor: Some(ActorFilter {
            sources: BTreeSet::from(["src-usb".to_string()]),
            identifiers: BTreeSet::from(["+85261234567".to_string()]),
            phenomena: BTreeSet::new(),
        }),
        ..Filter::default()
    };
    assert_eq!(
        sources(&leung),
        [
            "src-android:Message received",
            "src-usb:Content Modification Time",
            "src-usb:Creation Time"
        ]
    );
    // by e-mail (normalised case) and by phenomenon id
    let by_mail = Filter {
        actor: Some(ActorFilter {
            identifiers: BTreeSet::from(["yl.leung@example.com".to_string()]),
            phenomena: BTreeSet::from([ids[4].clone()]),
            ..ActorFilter::default()
        }),
        ..Filter::default()
    };
    assert_eq!(
        sources(&by_mail),
        [
            "src-iphone:Message received",
            "src-laptop:Content Modification Time"
        ]
    );
    // a number one digit off is someone else
    let other = Filter {
        actor: Some(ActorFilter {
            identifiers: BTreeSet::from(["+85261234568".to_string()]),
            ..ActorFilter::default()
        }),
        ..Filter::default()
    };
    assert!(sources(&other).is_empty());
    // filters combine
    let both = Filter {
        sources: BTreeSet::from(["src-android".to_string()]),
        ..leung
    };
    assert_eq!(sources(&both), ["src-android:Message received"]);
}

#[test]
fn bounds_read_in_the_case_zone_and_refuse_ambiguity() {
    let hk = |s| parse_bound(s, "Asia/Hong_Kong").map(|t| t.to_string());
    assert_eq!(hk("2025-02-18").unwrap(), "2025-02-17T16:00:00Z");
    assert_eq!(hk("2025-02-18 21:40").unwrap(), "2025-02-18T13:40:00Z");
    assert_eq!(
        hk("2025-02-18T21:40:00+08:00").unwrap(),
        "2025-02-18T13:40:00Z"
    );
    assert_eq!(hk("2025-02-18T13:40:00Z").unwrap(), "2025-02-18T13:40:00Z");
    assert!(hk("yesterday").unwrap_err().contains("not a time bound"));
    let ny = parse_bound("2024-11-03 01:30", "America/New_York").unwrap_err();
    assert!(ny.contains("ambiguous"), "{ny}");
}
