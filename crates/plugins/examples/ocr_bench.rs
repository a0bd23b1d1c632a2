//! Benchmark driver for bench/ocr.sh: OCRs every image of a folder with the engine behind
//! `ocr_image` (pooled, single-threaded Tesseract engines; no tool wrapper, no store) and
//! writes, per image, the text (`<stem>.txt`) and what the media extractor finds in it
//! (`<stem>.json`); prints `<name>\t<seconds>` per image and `total\t<seconds>` (wall time of
//! all images, engine start included).
//!
//!   ocr_bench IN_DIR OUT_DIR [LANG] [PREPROCESS] [THREADS]
//!
//! THREADS > 1 OCRs images on that many threads, each with its own engine (as the triage
//! agent does, one per core).

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use masf_plugins::media::ocr::{DEFAULT_PREPROCESS, Preprocess, recognise};
use masf_plugins::media::text;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: ocr_bench IN_DIR OUT_DIR [LANG] [PREPROCESS] [THREADS]");
        std::process::exit(2);
    }
    let (input, output) = (PathBuf::from(&args[1]), PathBuf::from(&args[2]));
    let lang = args.get(3).map_or("eng", String::as_str);
    let mode = args
        .get(4)
        .and_then(|p| Preprocess::parse(p))
        .unwrap_or(DEFAULT_PREPROCESS);
    let threads: usize = args.get(5).and_then(|t| t.parse().ok()).unwrap_or(1).max(1);
    std::fs::create_dir_all(&output).expect("output folder");
    let mut images: Vec<PathBuf> = std::fs::read_dir(&input)
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
    images.sort();
    let next = AtomicUsize::new(0);
    let lines = Mutex::new(Vec::new());
    let start_all = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = images.get(i) else { break };
                    let bytes = std::fs::read(path).expect("image");
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
                    let line = match result {
                        Ok((t, _)) => {
                            let found = text::extract(&t, None);
                            std::fs::write(output.join(format!("{stem}.txt")), &t).expect("write");
                            std::fs::write(
                                output.join(format!("{stem}.json")),
                                serde_json::to_string_pretty(&found.to_json()).expect("json"),
                            )
                            .expect("write");
                            format!("{name}\t{secs:.3}")
                        }
                        Err(e) => format!("{name}\t{secs:.3}\terror: {e}"),
                    };
                    lines.lock().expect("lines").push(line);
                }
            });
        }
    });
    let total = start_all.elapsed().as_secs_f64();
    let mut lines = lines.into_inner().expect("lines");
    lines.sort();
    for l in lines {
        println!("{l}");
    }
    println!("total\t{total:.3}");
}
