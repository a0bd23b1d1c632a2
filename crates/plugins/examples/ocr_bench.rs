//! Benchmark driver for bench/ocr.sh: OCRs every image of a folder with the `ocr_image` engine
//! (no tool wrapper, no store) and writes, per image, the text (`<name>.txt`) and what the
//! media extractor finds in it (`<name>.json`); prints `<name>\t<seconds>` per image.
//!
//!   ocr_bench IN_DIR OUT_DIR [LANG] [PREPROCESS]

use std::path::PathBuf;
use std::time::Instant;

use masf_plugins::media::ocr::{Preprocess, recognise};
use masf_plugins::media::text;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: ocr_bench IN_DIR OUT_DIR [LANG] [PREPROCESS]");
        std::process::exit(2);
    }
    let (input, output) = (PathBuf::from(&args[1]), PathBuf::from(&args[2]));
    let lang = args.get(3).map_or("eng", String::as_str);
    let mode = args
        .get(4)
        .and_then(|p| Preprocess::parse(p))
        .unwrap_or(Preprocess::None);
    std::fs::create_dir_all(&output).expect("output folder");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&input)
        .expect("input folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| {
                matches!(
                    e.to_string_lossy().to_lowercase().as_str(),
                    "png" | "jpg" | "jpeg"
                )
            })
        })
        .collect();
    names.sort();
    for path in names {
        let bytes = std::fs::read(&path).expect("image");
        let start = Instant::now();
        let result = recognise(&bytes, lang, mode);
        let secs = start.elapsed().as_secs_f64();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let stem = path
            .file_stem()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match result {
            Ok((t, _)) => {
                let found = text::extract(&t, None);
                std::fs::write(output.join(format!("{stem}.txt")), &t).expect("write");
                std::fs::write(
                    output.join(format!("{stem}.json")),
                    serde_json::to_string_pretty(&found.to_json()).expect("json"),
                )
                .expect("write");
                println!("{name}\t{secs:.3}");
            }
            Err(e) => println!("{name}\t{secs:.3}\terror: {e}"),
        }
    }
}
