//! Every encoding against known instants. The expected values come from tools independent of
//! jiff, with the command that produced each:
//! - GNU `date` (coreutils 9.1): `date -u -d @SECONDS +%FT%T.%NZ`,
//!   `date -u -d 'TZ="Asia/Hong_Kong" 2025-02-14 15:32:10' +%FT%T.%NZ`;
//! - Python 3.11 `datetime` + `zoneinfo` (PEP 495 `fold`): e.g.
//!   `datetime.fromisoformat("2024-03-10 02:30:00").replace(tzinfo=ZoneInfo("America/New_York"), fold=0).astimezone(timezone.utc)`;
//!   FILETIME/WebKit counts: `(datetime(2025,2,18,13,40,tzinfo=U)-datetime(1601,1,1,tzinfo=U))//timedelta(microseconds=1)`.
//!
//! The demo values are the planted ones of tests/fixtures/demo/ground_truth.json.

use masf_graph::TimeEncoding::{self, *};
use masf_report::timeline::{Ambiguity, convert};

const HK: Option<&str> = Some("Asia/Hong_Kong");

/// `raw` as `enc` (naive values read in `zone`) must be `utc`, read in `read_in`.
fn check(enc: TimeEncoding, raw: &str, zone: Option<&str>, utc: &str, read_in: &str) {
    match convert(raw, enc, zone) {
        Ok(c) => {
            assert_eq!(c.instant.to_string(), utc, "{raw:?} as {}", enc.as_str());
            assert_eq!(c.zone, read_in, "{raw:?} as {}", enc.as_str());
            assert_eq!(c.ambiguity, None, "{raw:?} as {}", enc.as_str());
        }
        Err(u) => panic!("{raw:?} as {}: {}", enc.as_str(), u.reason),
    }
}

fn refused(enc: TimeEncoding, raw: &str, zone: Option<&str>, why: &str) {
    match convert(raw, enc, zone) {
        Ok(c) => panic!("{raw:?} as {} converted to {}", enc.as_str(), c.instant),
        Err(u) => assert!(
            u.reason.contains(why),
            "{raw:?} as {}: {:?} does not say {why:?}",
            enc.as_str(),
            u.reason
        ),
    }
}

#[test]
fn epoch_counts_give_the_oracle_instants() {
    // date -u -d @1739926500 ; date -u -d @1739926500.123456789 +%FT%T.%NZ
    check(
        UnixSeconds,
        "1739926500",
        None,
        "2025-02-19T00:55:00Z",
        "UTC",
    );
    check(
        UnixSeconds,
        "1739926500.123456789",
        None,
        "2025-02-19T00:55:00.123456789Z",
        "UTC",
    );
    // date -u -d @-1.5 +%FT%T.%NZ -> 1969-12-31T23:59:58.500000000Z
    check(UnixSeconds, "-1.5", None, "1969-12-31T23:59:58.5Z", "UTC");
    // packages.xml it="18c8e2b1c2f": python3 -c "int('18c8e2b1c2f', 16)" -> 1703192239151;
    // date -u -d @1703192239.151 +%FT%T.%3NZ -> 2023-12-21T20:57:19.151Z
    check(
        UnixMillisHex,
        "18c8e2b1c2f",
        None,
        "2023-12-21T20:57:19.151Z",
        "UTC",
    );
    // Android mmssms.db sms _id=1 date (ground truth 2025-02-12T12:15:30Z)
    check(
        UnixMillis,
        "1739362530000",
        None,
        "2025-02-12T12:15:30Z",
        "UTC",
    );
    // date -u -d @1739362530.123456 +%FT%T.%NZ
    check(
        UnixMicros,
        "1739362530123456",
        None,
        "2025-02-12T12:15:30.123456Z",
        "UTC",
    );
    check(
        UnixNanos,
        "1739362530123456789",
        None,
        "2025-02-12T12:15:30.123456789Z",
        "UTC",
    );
    // iPhone AddressBook ABPerson ROWID=1 CreationDate; date -u -d @$((746965200+978307200))
    check(
        AppleSeconds,
        "746965200",
        None,
        "2024-09-02T10:20:00Z",
        "UTC",
    );
    // Accounts3.sqlite ZDATE as a Core Data float; Python: datetime(2001,1,1,tzinfo=U)+timedelta(microseconds=752221247100000)
    check(
        AppleSeconds,
        "752221247.1",
        None,
        "2024-11-02T06:20:47.1Z",
        "UTC",
    );
    // sms.db message ROWID=6 (WAL only) date; date -u -d @$((761578800+978307200))
    check(
        AppleNanos,
        "761578800000000000",
        None,
        "2025-02-18T13:40:00Z",
        "UTC",
    );
    // the same value as the sqlite3 shell prints a REAL ("%!.15g")
    check(
        AppleNanos,
        "7.615788e+17",
        None,
        "2025-02-18T13:40:00Z",
        "UTC",
    );
    // Python: (datetime(2025,2,18,13,40,tzinfo=U)-datetime(1601,1,1,tzinfo=U))//timedelta(microseconds=1)*10+1234
    check(
        WindowsFiletime,
        "133843596000001234",
        None,
        "2025-02-18T13:40:00.0001234Z",
        "UTC",
    );
    // Python: (datetime(2025,2,18,13,40,0,123456,tzinfo=U)-datetime(1601,1,1,tzinfo=U))//timedelta(microseconds=1)
    check(
        Webkit,
        "13384359600123456",
        None,
        "2025-02-18T13:40:00.123456Z",
        "UTC",
    );
    // The epochs themselves.
    check(AppleSeconds, "0", None, "2001-01-01T00:00:00Z", "UTC");
    check(WindowsFiletime, "0", None, "1601-01-01T00:00:00Z", "UTC");
    check(Webkit, "0", None, "1601-01-01T00:00:00Z", "UTC");
}

#[test]
fn text_encodings_give_the_oracle_instants() {
    // FAT times as the fs tools print them, Hong Kong wall clock (demo USB):
    // date -u -d 'TZ="Asia/Hong_Kong" 2025-02-11 09:30:06' -> 2025-02-11T01:30:06Z
    check(
        FatLocal,
        "2025-02-11T09:30:06.00 (local)",
        HK,
        "2025-02-11T01:30:06Z",
        "Asia/Hong_Kong",
    );
    // a FAT creation time with its 10 ms field
    check(
        FatLocal,
        "2025-02-19T09:12:35.50 (local)",
        HK,
        "2025-02-19T01:12:35.5Z",
        "Asia/Hong_Kong",
    );
    // date -u -d 'TZ="Asia/Hong_Kong" 2025-02-14 15:32:10' (EXIF DateTimeOriginal of IMG_0412.JPG)
    check(
        LocalText,
        "2025:02:14 15:32:10",
        HK,
        "2025-02-14T07:32:10Z",
        "Asia/Hong_Kong",
    );
    // date -u -d 'TZ="Asia/Hong_Kong" 2025-02-17 16:20:00' (screenshot text)
    check(
        LocalText,
        "2025-02-17 16:20:00",
        HK,
        "2025-02-17T08:20:00Z",
        "Asia/Hong_Kong",
    );
    check(
        LocalText,
        "2024-12-01T12:00:00.250",
        HK,
        "2024-12-01T04:00:00.25Z",
        "Asia/Hong_Kong",
    );
    // docx core.xml W3CDTF; date -u -d '2025-02-16T10:30:00+08:00'
    check(
        Iso8601,
        "2025-02-10T06:05:00Z",
        None,
        "2025-02-10T06:05:00Z",
        "UTC",
    );
    check(
        Iso8601,
        "2025-02-16T10:30:00+08:00",
        None,
        "2025-02-16T02:30:00Z",
        "+08:00",
    );
    check(
        Iso8601,
        "2025-02-16 10:30:00.5+0800",
        None,
        "2025-02-16T02:30:00.5Z",
        "+08:00",
    );
    check(
        Iso8601,
        "2024-11-03T01:30:00-05:00",
        None,
        "2024-11-03T06:30:00Z",
        "-05:00",
    );
    // An IANA annotation without an offset is read in that zone.
    check(
        Iso8601,
        "2025-02-16T10:30:00[Asia/Hong_Kong]",
        None,
        "2025-02-16T02:30:00Z",
        "Asia/Hong_Kong",
    );
    // C's ctime layout (iOS's mobile_installation.log lines); date -u -d 'TZ="Asia/Hong_Kong"
    // 2025-01-15 10:30:00', and a space-padded day
    check(
        LocalText,
        "Wed Jan 15 10:30:00 2025",
        HK,
        "2025-01-15T02:30:00Z",
        "Asia/Hong_Kong",
    );
    check(
        LocalText,
        "Sun Feb  2 08:05:09 2025",
        HK,
        "2025-02-02T00:05:09Z",
        "Asia/Hong_Kong",
    );
    // A naive value ignores no zone: the same wall clock in another source zone is another instant.
    check(
        LocalText,
        "2025-02-17 16:20:00",
        Some("Europe/London"),
        "2025-02-17T16:20:00Z",
        "Europe/London",
    );
}

/// `raw` in `zone` must fall in a gap or fold with the chosen and other instants given.
fn ambiguous(raw: &str, zone: &str, chosen: &str, other: &str, gap: bool) {
    let c = convert(raw, LocalText, Some(zone)).expect("converts");
    assert_eq!(c.instant.to_string(), chosen, "{raw} in {zone}");
    let a = c.ambiguity.expect("flagged");
    assert_eq!(
        matches!(a, Ambiguity::Gap { .. }),
        gap,
        "{raw} in {zone}: {a:?}"
    );
    assert_eq!(a.alternative().to_string(), other, "{raw} in {zone}");
}

#[test]
fn dst_gaps_and_folds_are_flagged_with_both_readings() {
    // Python zoneinfo, fold=0 then fold=1 (PEP 495: in a gap fold=0 uses the offset before it,
    // in a fold fold=0 is the first occurrence). GNU date refuses the gap:
    // `date -u -d 'TZ="America/New_York" 2024-03-10 02:30:00'` -> "invalid date".
    ambiguous(
        "2024-03-10 02:30:00",
        "America/New_York",
        "2024-03-10T07:30:00Z",
        "2024-03-10T06:30:00Z",
        true,
    );
    // date -u -d 'TZ="America/New_York" 2024-11-03 01:30:00' -> 05:30Z (the first)
    ambiguous(
        "2024-11-03 01:30:00",
        "America/New_York",
        "2024-11-03T05:30:00Z",
        "2024-11-03T06:30:00Z",
        false,
    );
    ambiguous(
        "2025-03-30 01:30:00",
        "Europe/London",
        "2025-03-30T01:30:00Z",
        "2025-03-30T00:30:00Z",
        true,
    );
    ambiguous(
        "2025-10-26 01:30:00",
        "Europe/London",
        "2025-10-26T00:30:00Z",
        "2025-10-26T01:30:00Z",
        false,
    );
    // FAT times are naive too.
    let c = convert(
        "2025-10-26T01:30:00.00 (local)",
        FatLocal,
        Some("Europe/London"),
    )
    .expect("converts");
    assert!(matches!(c.ambiguity, Some(Ambiguity::Fold { .. })));
    // Either side of the London gap is unambiguous.
    check(
        LocalText,
        "2025-03-30 00:59:59",
        Some("Europe/London"),
        "2025-03-30T00:59:59Z",
        "Europe/London",
    );
    check(
        LocalText,
        "2025-03-30 02:00:00",
        Some("Europe/London"),
        "2025-03-30T01:00:00Z",
        "Europe/London",
    );
}

#[test]
fn unreadable_values_say_why() {
    refused(FatLocal, "unset", HK, "FAT date is unset");
    refused(
        UnixMillisHex,
        "18c8e2b1c2g",
        None,
        "not a hexadecimal number of milliseconds",
    );
    // what RawTime::display prints for a corrupt FAT entry (second field 31 -> 62 s)
    refused(
        FatLocal,
        "2025-02-19T09:12:62.00 (local)",
        HK,
        "not a valid date-time",
    );
    refused(
        FatLocal,
        "2025-13-19T09:12:00.00 (local)",
        HK,
        "not a valid date-time",
    );
    refused(LocalText, "0000:00:00 00:00:00", HK, "all-zero date");
    refused(
        LocalText,
        "2025-02-30 10:00:00",
        HK,
        "not a valid date-time",
    );
    refused(LocalText, "2025-02-17", HK, "a date alone is not a time");
    refused(LocalText, "17/02/2025 16:20", HK, "expected YYYY-MM-DD");
    // a ctime value whose weekday is not its date's is refused, naming both layouts
    refused(
        LocalText,
        "Thu Jan 15 10:30:00 2025",
        HK,
        "or Www Mmm DD HH:MM:SS YYYY",
    );
    refused(
        LocalText,
        "2025-02-17 16:20:00+08:00",
        HK,
        "must be marked iso8601",
    );
    refused(LocalText, "2025-02-17 16:20:00", None, "has no time zone");
    refused(
        LocalText,
        "2025-02-17 16:20:00",
        Some("Asia/Atlantis"),
        "unknown time zone",
    );
    refused(
        Iso8601,
        "2025-02-17T16:20:00",
        None,
        "must be marked local_text",
    );
    refused(
        Iso8601,
        "D:20250216103000+08'00'",
        None,
        "expected YYYY-MM-DD",
    );
    refused(
        UnixSeconds,
        "1,739,926,500",
        None,
        "not a number of seconds",
    );
    refused(UnixMillis, "", None, "not a number of milliseconds");
    refused(AppleNanos, "NULL", None, "not a number of nanoseconds");
    // seconds taken for nanoseconds: far outside any calendar
    refused(
        UnixSeconds,
        "1739362530123456789",
        None,
        "outside the representable years",
    );
    refused(
        WindowsFiletime,
        "1e30",
        None,
        "outside the representable years",
    );
}
