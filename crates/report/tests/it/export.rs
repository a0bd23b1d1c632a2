//! The export columns: plaso/Timesketch names first, RFC 4180 quoting, one object a line.

use masf_graph::FactType;
use masf_graph::TimeEncoding::*;
use masf_report::timeline::export::{
    CSV_COLUMNS, CsvCells, L2TCSV_COLUMNS, render_table, write_csv, write_csv_with, write_json,
    write_jsonl, write_l2tcsv,
};
use masf_report::timeline::{Timeline, build};

use crate::support::{Graph, Ph, source};

fn timeline() -> Timeline {
    let mut g = Graph::new();
    g.record(Ph {
        source: "src-iphone",
        title: "Message \"ERC20 only\", from yl.leung@example.com",
        times: &[("761578800000000000", AppleNanos, "Message received")],
        facts: &[
            (FactType::Email, "yl.leung@example.com"),
            (FactType::Text, "ERC20 only. Send the 12,500 USDT"),
        ],
    });
    g.record(Ph {
        source: "src-usb",
        title: "/notes.txt \u{1b}[2J",
        times: &[
            (
                "2025-02-19T09:12:34.00 (local)",
                FatLocal,
                "Content Modification Time",
            ),
            ("unset", FatLocal, "Creation Time"),
        ],
        facts: &[],
    });
    build(
        &g.state,
        &[
            source("src-iphone", "Asia/Hong_Kong"),
            source("src-usb", "Asia/Hong_Kong"),
        ],
        "Asia/Hong_Kong",
    )
}

#[test]
fn csv_has_the_plaso_columns_and_quotes_what_needs_it() {
    let mut out = Vec::new();
    write_csv(&mut out, &timeline()).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("datetime,timestamp,timestamp_desc,message,source,source_id,"));
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, CSV_COLUMNS);
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 3);
    let col = |row: &csv::StringRecord, name: &str| {
        let i = CSV_COLUMNS.iter().position(|c| *c == name).unwrap();
        row.get(i).unwrap().to_string()
    };
    let m = &rows[0];
    assert_eq!(col(m, "datetime"), "2025-02-18T13:40:00.000000+00:00");
    assert_eq!(col(m, "timestamp"), "1739886000000000");
    assert_eq!(col(m, "timestamp_desc"), "Message received");
    // quotes and a comma survive the round trip
    assert_eq!(
        col(m, "message"),
        "Message \"ERC20 only\", from yl.leung@example.com"
    );
    assert_eq!(col(m, "raw_value"), "761578800000000000");
    assert_eq!(col(m, "raw_encoding"), "apple_nanos");
    assert_eq!(col(m, "zone"), "UTC");
    assert_eq!(col(m, "case_time"), "2025-02-18T21:40:00+08:00");
    let ctx: serde_json::Value = serde_json::from_str(&col(m, "context")).unwrap();
    assert_eq!(ctx[1]["value"], "ERC20 only. Send the 12,500 USDT");
    let fat = &rows[1];
    assert_eq!(col(fat, "datetime"), "2025-02-19T01:12:34.000000+00:00");
    assert_eq!(col(fat, "zone"), "Asia/Hong_Kong");
    assert_eq!(col(fat, "flag"), "");
    let unset = &rows[2];
    assert_eq!(col(unset, "datetime"), "");
    assert_eq!(col(unset, "timestamp"), "");
    assert_eq!(col(unset, "flag"), "unconvertible");
    assert!(col(unset, "note").contains("unset"));
}

#[test]
fn jsonl_and_json_carry_the_same_entries() {
    let t = timeline();
    let mut out = Vec::new();
    write_jsonl(&mut out, &t).unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    let keys: Vec<&str> = lines[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    // Timesketch's required JSONL fields come first; the rest is the CSV's columns
    assert_eq!(
        &keys[..4],
        ["datetime", "timestamp", "timestamp_desc", "message"]
    );
    assert_eq!(keys, CSV_COLUMNS);
    assert_eq!(lines[0]["timestamp"], 1_739_886_000_000_000_i64);
    assert_eq!(lines[0]["context"][0]["fact_type"], "email");
    assert_eq!(lines[2]["flag"], "unconvertible");
    assert!(lines[2]["datetime"].is_null());

    let mut doc = Vec::new();
    write_json(&mut doc, &t).unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&doc).unwrap();
    assert_eq!(doc["case_zone"], "Asia/Hong_Kong");
    assert_eq!(doc["count"], 3);
    assert_eq!(doc["unconvertible"], 1);
    assert_eq!(doc["entries"].as_array().unwrap(), &lines);
}

#[test]
fn the_table_shows_case_time_raw_value_and_flags() {
    let table = render_table(&timeline());
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("time (Asia/Hong_Kong)"));
    assert!(lines[1].starts_with("2025-02-18T21:40:00+08:00  src-iphone"));
    assert!(lines[1].ends_with("761578800000000000 (apple_nanos)"));
    assert!(lines[2].ends_with("(fat_local, read in Asia/Hong_Kong)"));
    assert!(lines[3].starts_with("?"));
    assert!(
        lines[4]
            .trim_start()
            .starts_with("! unconvertible: the FAT date is unset")
    );
    assert!(
        !table.contains('\u{1b}'),
        "no terminal escape from evidence reaches the terminal"
    );
    assert_eq!(
        *lines.last().unwrap(),
        "3 entries, 1 unconvertible, 0 in a DST gap or fold"
    );
}

/// Cells a spreadsheet would run as formulas come out as text: every hostile title below is
/// prefixed with `'` in the default CSV, and kept as recorded in the raw one.
#[test]
fn csv_cells_that_spreadsheets_would_run_are_neutralised_by_default() {
    let hostile = [
        "=HYPERLINK(\"http://x\",\"open\")",
        "+1+cmd|' /C calc'!A0",
        "-2+3",
        "@SUM(A1:A9)",
        "\tTAB first",
        "\rCR first",
    ];
    let mut g = Graph::new();
    for (i, title) in hostile.iter().enumerate() {
        let raw = format!("2025-02-19T09:12:3{i}.00 (local)");
        g.record(Ph {
            source: "src-usb",
            title,
            times: &[(raw.as_str(), FatLocal, "Content Modification Time")],
            facts: &[],
        });
    }
    let t = build(
        &g.state,
        &[source("src-usb", "Asia/Hong_Kong")],
        "Asia/Hong_Kong",
    );
    let message = CSV_COLUMNS.iter().position(|c| *c == "message").unwrap();
    let cells = |mode: CsvCells| -> Vec<String> {
        let mut out = Vec::new();
        write_csv_with(&mut out, &t, mode).unwrap();
        csv::Reader::from_reader(out.as_slice())
            .records()
            .map(|r| r.unwrap().get(message).unwrap().to_string())
            .collect()
    };
    let mut default = Vec::new();
    write_csv(&mut default, &t).unwrap();
    let neutralised = cells(CsvCells::Neutralised);
    let raw = cells(CsvCells::Raw);
    assert_eq!(neutralised.len(), hostile.len());
    for (n, r) in neutralised.iter().zip(&raw) {
        assert!(
            hostile
                .iter()
                .any(|h| r.contains(h.trim_start_matches(['\t', '\r']))),
            "{r:?}"
        );
        assert_eq!(n, &format!("'{r}"), "not neutralised: {r:?}");
        assert!(!n.starts_with(['=', '+', '-', '@', '\t', '\r']));
    }
    // The default export is the neutralised one; numbers it writes itself stay numbers.
    let text = String::from_utf8(default).unwrap();
    let first = csv::Reader::from_reader(text.as_bytes())
        .records()
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(first.get(message).unwrap(), neutralised[0]);
    assert!(first.get(1).unwrap().parse::<i64>().is_ok());
}

/// plaso's l2tcsv: its 17 columns, the UTC date as MM/DD/YYYY and time, MACB from the
/// description; the unconvertible entry has no row (it has no date).
#[test]
fn l2tcsv_has_plaso_columns_utc_dates_and_macb() {
    let mut out = Vec::new();
    write_l2tcsv(&mut out, &timeline()).unwrap();
    let mut r = csv::Reader::from_reader(out.as_slice());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, L2TCSV_COLUMNS);
    let rows: Vec<Vec<String>> = r
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    let by = |source: &str| rows.iter().find(|r| r[4] == source).unwrap();
    // Apple nanoseconds 761578800000000000 = 2025-02-18T13:40:00Z.
    let msg = by("src-iphone");
    assert_eq!(
        (
            &msg[0][..],
            &msg[1][..],
            &msg[2][..],
            &msg[3][..],
            &msg[6][..]
        ),
        ("02/18/2025", "13:40:00", "UTC", "....", "Message received")
    );
    assert_eq!(msg[11], "2");
    assert!(msg[16].contains("761578800000000000"));
    // A FAT local time read in Asia/Hong_Kong (+08:00): 09:12:34 local = 01:12:34 UTC.
    let file = by("src-usb");
    assert_eq!(
        (&file[0][..], &file[1][..], &file[3][..]),
        ("02/19/2025", "01:12:34", "M...")
    );
}
