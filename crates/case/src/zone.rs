//! IANA time zones, looked up in the tz database bundled with `jiff` (so every machine reads the
//! same rules).

use jiff::tz::TimeZone;

use crate::yaml::edit_distance;

/// Looks up an IANA name (case-insensitively: `asia/hong_kong` gives `Asia/Hong_Kong`) and returns
/// the canonical name with the zone. Offsets, abbreviations and POSIX TZ strings are not IANA names
/// and give `None`.
pub(crate) fn lookup(name: &str) -> Option<(String, TimeZone)> {
    let tz = jiff::tz::db().get(name).ok()?;
    let name = tz.iana_name().unwrap_or(name).to_string();
    Some((name, tz))
}

/// The valid IANA name closest to `name`, for "did you mean" hints. Case, spaces, `_` and `-`
/// are ignored; a match of the whole name or of its last part wins (`Asia/HongKong`,
/// `Hong Kong` → `Asia/Hong_Kong`), then the nearest by edit distance. Among equals,
/// `Area/City` names win over legacy single-word ones (`Hongkong`).
pub(crate) fn suggest(name: &str) -> Option<String> {
    fn squash(s: &str) -> String {
        s.chars()
            .filter(|c| !matches!(c, ' ' | '_' | '-'))
            .flat_map(char::to_lowercase)
            .collect()
    }
    fn last_part(s: &str) -> &str {
        s.rsplit('/').next().unwrap_or(s)
    }
    let wanted = squash(name.trim());
    let wanted_city = last_part(&wanted).to_string();
    let limit = (wanted.chars().count() / 4).max(2);
    jiff::tz::db()
        .available()
        .filter_map(|n| {
            let n = n.as_str().to_string();
            let full = squash(&n);
            let rank = if full == wanted || last_part(&full) == wanted_city {
                0
            } else {
                let d = edit_distance(&wanted, &full)
                    .min(edit_distance(&wanted_city, last_part(&full)));
                if d > limit {
                    return None;
                }
                1 + d
            };
            Some((rank, !n.contains('/'), n))
        })
        .min()
        .map(|(_, _, n)| n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_names() {
        for (written, canonical) in [
            ("Asia/Hong_Kong", "Asia/Hong_Kong"),
            ("asia/hong_kong", "Asia/Hong_Kong"),
            ("UTC", "UTC"),
            ("Europe/London", "Europe/London"),
        ] {
            let zone = lookup(written).map(|(name, _)| name);
            assert_eq!(zone.as_deref(), Some(canonical), "{written}");
        }
    }

    #[test]
    fn not_iana_names() {
        for name in [
            "",
            "+08:00",
            "UTC+8",
            "Asia/HongKong",
            "Hong Kong",
            "Mars/Olympus",
        ] {
            assert!(lookup(name).is_none(), "{name}");
        }
    }

    #[test]
    fn suggestions() {
        for (written, suggestion) in [
            ("Asia/HongKong", Some("Asia/Hong_Kong")),
            ("Hong Kong", Some("Asia/Hong_Kong")),
            ("Europe/Londn", Some("Europe/London")),
            ("Asia/Shangai", Some("Asia/Shanghai")),
            ("hongkong", Some("Asia/Hong_Kong")),
            ("Mars/Olympus_Mons", None),
        ] {
            assert_eq!(suggest(written).as_deref(), suggestion, "{written}");
        }
    }
}
