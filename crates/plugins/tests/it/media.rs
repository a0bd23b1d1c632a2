//! The media plugin on the demo screenshots (rendered by ImageMagick in
//! tests/fixtures/demo/gen.py; ground truth in tests/fixtures/demo/ground_truth.json) and on
//! broken images: OCR with the real Tesseract, facts grounded in the OCR output.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use masf_agents::{Session, SourceInfo, triage_all};
use masf_graph::{EntityKind, FactType, MatchMethod, Normalisation, Scoring, TimeEncoding};
use masf_plugins::media::{self, ocr};
use masf_tools::{Invoker, Limits, SourceCtx, Tool};
use serde_json::{Value, json};

fn demo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/demo")
        .join(path)
}

fn truth() -> Value {
    let text = std::fs::read_to_string(demo("ground_truth.json")).expect("ground truth");
    serde_json::from_str(&text).expect("json")
}

fn session(dir: &Path, evidence: &Path) -> Session {
    let plugins = masf_plugins::all();
    Session::open(
        dir,
        Scoring::default(),
        Invoker::new(Arc::new(plugins.catalog()), Limits::default()),
        vec![SourceInfo {
            id: "src-screens".into(),
            label: "Transaction screenshots".into(),
            path: evidence.to_path_buf(),
            owner: None,
            timezone: "Asia/Hong_Kong".into(),
            region: masf_graph::Region::parse("HK").ok(),
            password_env: None,
        }],
        Arc::new(|| jiff::Timestamp::from_second(1_764_000_000).expect("time")),
    )
    .expect("session opens")
}

/// Every demo screenshot's wallet address is read (verbatim or by a recorded look-alike
/// repair), recorded as a grounded fact and observed as a `wallet:<canonical>` entity; the
/// receipt's phone number is observed for the screenshot; amounts and times are facts.
#[test]
fn demo_screenshots_wallets_phones_amounts_and_times() {
    let truth = truth();
    let wallets: Vec<String> = truth["wallets"]
        .as_object()
        .expect("wallets")
        .values()
        .map(|v| v.as_str().expect("wallet").to_string())
        .collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let s = session(dir.path(), &demo("evidence/screenshots"));
    let reports = triage_all(&s, &masf_plugins::all(), 1).expect("triage");
    assert_eq!(reports[0].plugin.as_deref(), Some("media"), "{reports:?}");
    assert_eq!(reports[0].tally.rejections, 0, "{reports:?}");
    assert_eq!(reports[0].tally.unparsed, 0, "{reports:?}");
    let state = s.state().expect("state");
    let phenomena: Vec<_> = state.phenomena().values().collect();
    let screens = truth["screenshots"].as_object().expect("screenshots");
    let mut wallet_screens = 0;
    for (name, screen) in screens {
        let path = format!("/{name}");
        let lines: Vec<&str> = screen["lines"]
            .as_array()
            .expect("lines")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let ph = phenomena
            .iter()
            .find(|p| {
                p.verified_facts
                    .iter()
                    .any(|f| f.fact_type == FactType::Path && f.value == path)
            })
            .unwrap_or_else(|| panic!("no phenomenon for {path}"));
        assert_eq!(ph.category, media::CATEGORY_TRANSACTION, "{path}");
        let facts = |t: FactType| -> Vec<&str> {
            ph.verified_facts
                .iter()
                .filter(|f| f.fact_type == t)
                .map(|f| f.value.as_str())
                .collect()
        };
        // the wallet of this screen, read verbatim or through a recorded repair
        for wallet in wallets.iter().filter(|w| lines.contains(&w.as_str())) {
            wallet_screens += 1;
            let fact = ph
                .verified_facts
                .iter()
                .find(|f| f.fact_type == FactType::Wallet && &f.value == wallet)
                .unwrap_or_else(|| panic!("{path}: wallet {wallet} not read: {ph:?}"));
            assert!(
                fact.matched.method == MatchMethod::Verbatim
                    || fact.matched.normalisation == Some(Normalisation::LookAlikeRepair),
                "{path}: {:?}",
                fact.matched
            );
            let canonical = masf_graph::identifiers::normalize_wallet(wallet).expect("valid");
            let entity = state
                .entities()
                .values()
                .find(|e| e.context == format!("wallet:{canonical}"))
                .unwrap_or_else(|| panic!("{path}: wallet {wallet} not observed"));
            assert_eq!(entity.kind, EntityKind::Wallet);
            assert_eq!(entity.identifiers[0].normalized, canonical);
        }
        // the headline amount (sign and currency included) and the date line
        let amount = lines
            .iter()
            .find(|l| l.ends_with(" USDT") || l.ends_with(" BTC"))
            .expect("amount line");
        assert!(
            facts(FactType::Amount).contains(amount),
            "{path}: {:?}",
            facts(FactType::Amount)
        );
        let time = lines
            .iter()
            .find(|l| l.starts_with("2025-02-"))
            .expect("time line");
        assert_eq!(facts(FactType::Timestamp), [*time], "{path}");
        assert_eq!(ph.times.len(), 1);
        assert_eq!(ph.times[0].encoding, TimeEncoding::LocalText);
        // transaction hashes, where shown, verbatim
        for h in lines
            .iter()
            .filter(|l| l.len() >= 64 && l.bytes().all(|b| b.is_ascii_hexdigit() || b == b'x'))
        {
            assert!(facts(FactType::Hash).contains(h), "{path}: hash {h}");
        }
    }
    assert_eq!(wallet_screens, 4);
    // Every planted wallet is observed, and nothing else is.
    let mut observed: Vec<&str> = state
        .entities()
        .values()
        .filter(|e| e.kind == EntityKind::Wallet)
        .map(|e| e.context.as_str())
        .collect();
    observed.sort();
    let mut expected: Vec<String> = wallets
        .iter()
        .map(|w| {
            format!(
                "wallet:{}",
                masf_graph::identifiers::normalize_wallet(w).expect("valid")
            )
        })
        .collect();
    expected.sort();
    assert_eq!(observed, expected);
    // The OTC receipt's contact number, seen in that screenshot.
    let person = state
        .entities()
        .values()
        .find(|e| e.context == "screenshot:/IMG_0452.PNG")
        .expect("phone of IMG_0452.PNG observed");
    assert_eq!(person.kind, EntityKind::Person);
    assert_eq!(person.identifiers[0].normalized, "+85261234567");
    assert_eq!(person.identifiers[0].value, "(852) 6123-4567");
}

/// A file that is not an image and a truncated PNG are each noted as unparsed with the
/// reason; the other screenshots of the folder are still analysed.
#[test]
fn broken_images_are_noted_and_the_rest_analysed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let evidence = dir.path().join("evidence");
    std::fs::create_dir(&evidence).expect("mkdir");
    for name in ["IMG_0457.PNG", "Screenshot_20250220-101512_TronLink.png"] {
        std::fs::copy(
            demo(&format!("evidence/screenshots/{name}")),
            evidence.join(name),
        )
        .expect("copy");
    }
    std::fs::write(evidence.join("notes.png"), b"not an image, just text\n").expect("write");
    let png = std::fs::read(demo("evidence/screenshots/IMG_0452.PNG")).expect("read");
    std::fs::write(evidence.join("cut.png"), &png[..4096]).expect("write");
    let s = session(&dir.path().join("case"), &evidence);
    let reports = triage_all(&s, &masf_plugins::all(), 1).expect("triage");
    assert_eq!(reports[0].plugin.as_deref(), Some("media"), "{reports:?}");
    assert_eq!(reports[0].error, None);
    let mut unparsed = s.unparsed().expect("unparsed");
    unparsed.sort_by(|a, b| a.artefact.cmp(&b.artefact));
    let notes: Vec<(&str, &str)> = unparsed
        .iter()
        .map(|u| (u.artefact.as_str(), u.reason.as_str()))
        .collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert_eq!(notes[0].0, "/cut.png");
    assert!(notes[0].1.contains("ocr_image failed"), "{notes:?}");
    assert!(notes[0].1.contains("png"), "{notes:?}");
    assert_eq!(notes[1].0, "/notes.png");
    assert!(notes[1].1.contains("not an image"), "{notes:?}");
    let state = s.state().expect("state");
    assert_eq!(
        state
            .phenomena()
            .values()
            .filter(|p| p.category == media::CATEGORY_TRANSACTION)
            .count(),
        2
    );
    let paths: Vec<&str> = state
        .phenomena()
        .values()
        .flat_map(|p| p.verified_facts.iter())
        .filter(|f| f.fact_type == FactType::Path)
        .map(|f| f.value.as_str())
        .collect();
    assert!(!paths.contains(&"/notes.png") && !paths.contains(&"/cut.png"));
}

/// The tool's text is the `tesseract` CLI's text for the same image (same engine, same page
/// layout analysis), after a header naming what produced it; repeated calls give the same
/// bytes; a single image file is a source of its own.
#[test]
fn ocr_image_reads_like_the_tesseract_cli_and_repeats_itself() {
    let image = demo("evidence/screenshots/Screenshot_20250219-090512_Wallet.png");
    let cli = std::process::Command::new("tesseract")
        .arg(&image)
        .arg("-")
        .env("OMP_THREAD_LIMIT", "1")
        .output()
        .expect("tesseract CLI (scripts/setup.sh installs it)");
    assert!(cli.status.success());
    let cli_text = String::from_utf8(cli.stdout).expect("utf-8");

    let folder = SourceCtx::open("src-screens", &demo("evidence/screenshots")).expect("open");
    let args = json!({"path": "/Screenshot_20250219-090512_Wallet.png", "preprocess": "none"});
    let out = ocr::OcrImage.run(&folder, &args).expect("ocr");
    let (header, body) = out.text.split_once('\n').expect("header line");
    assert!(
        header.starts_with(
            "# ocr_image path=/Screenshot_20250219-090512_Wallet.png engine=tesseract-"
        ),
        "{header}"
    );
    assert!(
        header.ends_with(" lang=eng preprocess=none size=1440x3040"),
        "{header}"
    );
    // the page text, then the address line re-read in its alphabet
    let (page, rereads) = body.split_once(ocr::REREAD_MARK).expect("a re-read line");
    assert_eq!(page.trim_end(), cli_text.trim_end());
    assert_eq!(
        rereads,
        " box=53,1137,1140,1172 alphabet=hex\n0x1850cE0E73407A9997C467BABc60fe887C567625\n"
    );
    assert_eq!(
        ocr::OcrImage.run(&folder, &args).expect("again").text,
        out.text
    );

    let single = SourceCtx::open("src-one", &image).expect("open one file");
    let detection = masf_plugins::all()
        .detection("media", &single)
        .expect("a single image is media");
    assert_eq!(detection.score, 100);
    let one = ocr::OcrImage
        .run(&single, &json!({"path": "/"}))
        .expect("ocr single");
    assert_eq!(one.text.split_once('\n').expect("header").1, body);
    // the default preprocessing is named in the header
    let gray = ocr::OcrImage
        .run(&single, &json!({"path": "/"}))
        .expect("ocr gray");
    assert!(
        gray.text
            .lines()
            .next()
            .expect("header")
            .contains(" preprocess=gray ")
    );
}

/// Hostile inputs are typed errors, never panics.
#[test]
fn ocr_image_refuses_bad_input_with_reasons() {
    let folder = SourceCtx::open("src-screens", &demo("evidence/screenshots")).expect("open");
    let err = |args: Value| match ocr::OcrImage.run(&folder, &args) {
        Ok(out) => panic!("accepted {args}: {}", out.text),
        Err(e) => e.to_string(),
    };
    assert!(err(json!({"path": "/nope.png"})).contains("nope.png"));
    assert!(
        err(json!({"path": "/IMG_0457.PNG", "lang": "../../etc"})).contains("invalid arguments")
    );
    assert!(
        err(json!({"path": "/IMG_0457.PNG", "preprocess": "sharpen"}))
            .contains("invalid arguments")
    );
    assert!(err(json!({"path": "/IMG_0457.PNG", "lang": "xx"})).contains("language data"));
    let png = std::fs::read(demo("evidence/screenshots/IMG_0457.PNG")).expect("read");
    for cut in [8, 33, 100, 5000] {
        assert!(
            ocr::recognise(&png[..cut], "eng", ocr::Preprocess::None).is_err(),
            "cut at {cut}"
        );
    }
    // the call's time limit stops recognition (the wrapper has abandoned the call by then)
    masf_tools::deadline::set(Some(std::time::Instant::now()));
    let e = ocr::recognise(&png, "eng", ocr::Preprocess::Gray).expect_err("past deadline");
    masf_tools::deadline::set(None);
    assert!(e.to_string().contains("time limit"), "{e}");
    // a header claiming an absurd size is refused before decoding
    let mut huge = png.clone();
    huge[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    let e = ocr::recognise(&huge, "eng", ocr::Preprocess::None).expect_err("huge");
    assert!(e.to_string().contains("outside the sizes"), "{e}");
}

/// Screenshots whose addresses Tesseract misreads in look-alike characters only
/// (tests/fixtures/media): each wallet is still recorded and observed, grounded through the
/// recorded look-alike repair where the OCR output does not hold it verbatim, and the
/// interpretation says so.
#[test]
fn look_alike_misreads_are_repaired_on_the_record() {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/media");
    let truth: Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures.join("truth.json")).expect("truth"))
            .expect("json");
    // The images alone (the fixture folder also holds its README and generator).
    let dir = tempfile::tempdir().expect("tempdir");
    let evidence = dir.path().join("screens");
    std::fs::create_dir(&evidence).expect("mkdir");
    for name in truth.as_object().expect("truth").keys() {
        std::fs::copy(fixtures.join(name), evidence.join(name)).expect("copy");
    }
    let s = session(&dir.path().join("case"), &evidence);
    let reports = triage_all(&s, &masf_plugins::all(), 1).expect("triage");
    assert_eq!(reports[0].plugin.as_deref(), Some("media"), "{reports:?}");
    assert_eq!(reports[0].tally.rejections, 0, "{reports:?}");
    let state = s.state().expect("state");
    let mut repaired = 0;
    for (name, f) in truth.as_object().expect("truth") {
        let wallet = f["wallet"].as_str().expect("wallet");
        let ph = state
            .phenomena()
            .values()
            .find(|p| {
                p.verified_facts
                    .iter()
                    .any(|x| x.fact_type == FactType::Path && x.value == format!("/{name}"))
            })
            .unwrap_or_else(|| panic!("no phenomenon for {name}"));
        let fact = ph
            .verified_facts
            .iter()
            .find(|x| x.fact_type == FactType::Wallet && x.value == wallet)
            .unwrap_or_else(|| panic!("{name}: {wallet} not read: {ph:?}"));
        match fact.matched.normalisation {
            Some(Normalisation::LookAlikeRepair) => {
                repaired += 1;
                assert!(
                    ph.interpretation
                        .contains("repaired by look-alike normalisation")
                );
                let span = fact.matched.span.expect("span of the misread");
                assert_eq!(span.end - span.start, wallet.len(), "{name}");
            }
            None => assert_eq!(fact.matched.method, MatchMethod::Verbatim),
            other => panic!("{name}: {other:?}"),
        }
        let amount = f["amount"].as_str().expect("amount");
        assert!(
            ph.verified_facts
                .iter()
                .any(|x| x.fact_type == FactType::Amount && x.value == amount),
            "{name}: {amount}"
        );
        let canonical = masf_graph::identifiers::normalize_wallet(wallet).expect("valid");
        assert!(
            state
                .entities()
                .values()
                .any(|e| e.context == format!("wallet:{canonical}")),
            "{name}: {canonical} not observed"
        );
    }
    // With the Tesseract these fixtures were made for, both need the repair.
    let version = masf_plugins::media::ocr::engine_versions();
    if version.starts_with("tesseract-5.3.0/") {
        assert_eq!(repaired, 2, "{version}");
    }
}
