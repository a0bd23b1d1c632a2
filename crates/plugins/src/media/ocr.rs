//! `ocr_image`: the text Tesseract recognises in one image of the evidence, through `leptess`'s
//! bindings to the Tesseract and Leptonica C APIs.
//!
//! - The image is read through the source's file system (or, for a source that is one image
//!   file, the file itself), checked to be an image format Leptonica decodes, and its header
//!   checked for sane dimensions before it is decoded: a non-image or a corrupt image is a
//!   [`ToolError`], never a crash.
//! - Engines are pooled per language set (and per address alphabet for line engines): a call
//!   takes an idle engine or starts one (130–225 ms for `eng`), and gives it back. An engine is used by one thread at a time (Tesseract's rule
//!   for `TessBaseAPI`), so images OCR'd on parallel threads each get their own engine.
//! - Each recognition runs single-threaded (what `OMP_THREAD_LIMIT=1` gives the CLI): OpenMP's
//!   parallel regions are made inactive on the calling thread, since Tesseract's own threads
//!   only fight over the cores that parallel images already use.
//! - The output is a header line naming the path, engine and Leptonica versions, language set,
//!   preprocessing and image size (so re-runs compare like with like), then the page text
//!   (what the `tesseract` CLI prints for the same input), then each line shaped like a wallet
//!   address re-read alone in single-line mode with its alphabet whitelisted
//!   ([`REREAD_MARK`] lines): the whitelist rules out the look-alikes the alphabet cannot hold,
//!   which raised exact address reads from 7 to 12 of 24 synthetic screenshots.
//! - The call's time limit ([`masf_tools::deadline`]) becomes Tesseract's deadline.

use std::collections::HashMap;
use std::ffi::{CStr, CString, c_int};
use std::sync::{Arc, Mutex, OnceLock};

use leptess::capi;
use masf_evidence::fs::normalize_path;
use masf_tools::{Applicability, SourceCtx, Tool, ToolError, ToolOutput};
use serde_json::{Value, json};

/// The language set used when a call names none (measured: docs/notes/media.md).
pub const DEFAULT_LANG: &str = "eng";
/// Largest image file read (bytes).
pub const MAX_IMAGE_BYTES: u64 = 64 << 20;
/// Largest image decoded (pixels).
pub const MAX_PIXELS: i64 = 80_000_000;
/// Largest side of an image decoded (pixels).
pub const MAX_SIDE: i32 = 30_000;

#[link(name = "gomp")]
unsafe extern "C" {
    /// OpenMP: with 0 active levels every parallel region runs on the calling thread alone.
    fn omp_set_max_active_levels(max_levels: c_int);
}

/// Image preprocessing before recognition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preprocess {
    /// The decoded image as it is (Tesseract binarises it internally).
    None,
    /// Converted to 8-bit grey.
    Gray,
    /// Grey, scaled up 2× with linear interpolation.
    Upscale,
    /// Grey, scaled up 2×, then binarised with Otsu's threshold.
    Binarise,
}

impl Preprocess {
    /// All modes, by name.
    pub const ALL: [Preprocess; 4] = [Self::None, Self::Gray, Self::Upscale, Self::Binarise];

    /// The name used in arguments and in the output header.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Gray => "gray",
            Self::Upscale => "upscale",
            Self::Binarise => "binarise",
        }
    }

    /// The mode of a name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.as_str() == name)
    }
}

/// The default preprocessing (measured: docs/notes/media.md).
pub const DEFAULT_PREPROCESS: Preprocess = Preprocess::Gray;

/// The image formats Leptonica decodes here, by magic bytes.
pub fn image_format(head: &[u8]) -> Option<&'static str> {
    if head.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("png")
    } else if head.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("jpeg")
    } else if head.starts_with(b"GIF87a") || head.starts_with(b"GIF89a") {
        Some("gif")
    } else if head.starts_with(b"II*\0") || head.starts_with(b"MM\0*") {
        Some("tiff")
    } else if head.starts_with(b"BM") && head.len() >= 14 {
        Some("bmp")
    } else if head.len() >= 12 && head.starts_with(b"RIFF") && &head[8..12] == b"WEBP" {
        Some("webp")
    } else {
        None
    }
}

/// Why an image could not be recognised.
fn fail(msg: impl Into<String>) -> ToolError {
    ToolError::Other(msg.into())
}

/// An owned Leptonica image.
struct Pix(*mut capi::Pix);

impl Pix {
    fn from(ptr: *mut capi::Pix, what: &str) -> Result<Self, ToolError> {
        if ptr.is_null() {
            Err(fail(format!("leptonica could not {what}")))
        } else {
            Ok(Pix(ptr))
        }
    }

    fn size(&self) -> (i32, i32) {
        // SAFETY: self.0 is a valid PIX owned by self.
        unsafe { (capi::pixGetWidth(self.0), capi::pixGetHeight(self.0)) }
    }

    fn map(
        &self,
        what: &str,
        f: impl FnOnce(*mut capi::Pix) -> *mut capi::Pix,
    ) -> Result<Pix, ToolError> {
        Pix::from(f(self.0), what)
    }
}

impl Drop for Pix {
    fn drop(&mut self) {
        // SAFETY: self.0 was returned by Leptonica and is destroyed once.
        unsafe { capi::pixDestroy(&mut self.0) }
    }
}

/// Decodes `bytes` (already known to be an image format) after checking its header.
fn decode(bytes: &[u8]) -> Result<Pix, ToolError> {
    // Leptonica reports problems on stderr as well as by its return values; the return values
    // become the tool's error, so its messages are turned off (once, for the process).
    static QUIET: OnceLock<()> = OnceLock::new();
    // SAFETY: sets a global severity level; no pointers involved.
    QUIET.get_or_init(|| unsafe {
        capi::setMsgSeverity(capi::L_SEVERITY_NONE as i32);
    });
    let (mut format, mut w, mut h, mut bps, mut spp, mut iscmap) = (0, 0, 0, 0, 0, 0);
    // SAFETY: bytes is a live slice; the out-pointers are valid locals.
    let rc = unsafe {
        capi::pixReadHeaderMem(
            bytes.as_ptr(),
            bytes.len(),
            &mut format,
            &mut w,
            &mut h,
            &mut bps,
            &mut spp,
            &mut iscmap,
        )
    };
    if rc != 0 {
        return Err(fail("corrupt image: its header could not be read"));
    }
    if w <= 0 || h <= 0 || w > MAX_SIDE || h > MAX_SIDE || i64::from(w) * i64::from(h) > MAX_PIXELS
    {
        return Err(fail(format!(
            "image of {w}x{h} pixels is outside the sizes OCR'd (at most {MAX_SIDE} a side, {MAX_PIXELS} pixels)"
        )));
    }
    // SAFETY: as above; the result is owned by the returned Pix.
    let pix = Pix::from(
        unsafe { capi::pixReadMem(bytes.as_ptr(), bytes.len()) },
        "decode the image (corrupt or truncated)",
    )?;
    if pix.size() != (w, h) {
        return Err(fail("corrupt image: decoded size differs from its header"));
    }
    Ok(pix)
}

fn preprocess(pix: Pix, mode: Preprocess) -> Result<Pix, ToolError> {
    if mode == Preprocess::None {
        return Ok(pix);
    }
    // SAFETY (all calls below): the input PIX is valid; each result is a new PIX owned by the
    // returned value.
    let gray = pix.map("convert to grey", |p| unsafe { capi::pixConvertTo8(p, 0) })?;
    if mode == Preprocess::Gray {
        return Ok(gray);
    }
    let big = gray.map("scale", |p| unsafe { capi::pixScaleGrayLI(p, 2.0, 2.0) })?;
    if mode == Preprocess::Upscale {
        return Ok(big);
    }
    let (w, h) = big.size();
    let mut binary: *mut capi::Pix = std::ptr::null_mut();
    // SAFETY: big is valid; binary receives a new PIX (or stays null on failure).
    let rc = unsafe {
        capi::pixOtsuAdaptiveThreshold(
            big.0,
            w.max(16),
            h.max(16),
            0,
            0,
            0.0,
            std::ptr::null_mut(),
            &mut binary,
        )
    };
    if rc != 0 {
        return Err(fail("leptonica could not binarise the image"));
    }
    Pix::from(binary, "binarise")
}

/// One Tesseract engine (`TessBaseAPI`), used by one thread at a time.
struct Engine(*mut capi::TessBaseAPI);

// SAFETY: a TessBaseAPI may be used from any thread as long as only one uses it at a time; the
// pool hands each engine to one call and takes it back after.
unsafe impl Send for Engine {}

impl Drop for Engine {
    fn drop(&mut self) {
        // SAFETY: created by TessBaseAPICreate, deleted once.
        unsafe { capi::TessBaseAPIDelete(self.0) }
    }
}

impl Engine {
    fn start(lang: &str, alphabet: Option<Alphabet>) -> Result<Engine, ToolError> {
        let c_lang = CString::new(lang).map_err(|_| fail("invalid language"))?;
        // SAFETY: a new handle, owned by the Engine (deleted on drop, also on init failure).
        let engine = Engine(unsafe { capi::TessBaseAPICreate() });
        if engine.0.is_null() {
            return Err(fail("tesseract could not start"));
        }
        // SAFETY: valid handle and NUL-terminated strings; NULL datapath = the installed tessdata.
        let rc = unsafe { capi::TessBaseAPIInit3(engine.0, std::ptr::null(), c_lang.as_ptr()) };
        if rc != 0 {
            return Err(fail(format!(
                "tesseract could not load the language data for {lang:?} (install tesseract-ocr-<lang>)"
            )));
        }
        // Page layout analysis as the `tesseract` CLI does it (the API's default is one block);
        // a line engine reads one line in a restricted alphabet, fixed for its life.
        // SAFETY: valid handle and NUL-terminated strings.
        match alphabet {
            None => unsafe {
                capi::TessBaseAPISetPageSegMode(engine.0, capi::TessPageSegMode_PSM_AUTO)
            },
            Some(a) => unsafe {
                capi::TessBaseAPISetPageSegMode(engine.0, capi::TessPageSegMode_PSM_SINGLE_LINE);
                let chars = CString::new(a.chars()).map_err(|_| fail("invalid alphabet"))?;
                capi::TessBaseAPISetVariable(
                    engine.0,
                    c"tessedit_char_whitelist".as_ptr(),
                    chars.as_ptr(),
                );
            },
        }
        // Tesseract's debug messages go nowhere (its results are the tool's output).
        // SAFETY: valid handle and NUL-terminated literals.
        unsafe {
            capi::TessBaseAPISetVariable(engine.0, c"debug_file".as_ptr(), c"/dev/null".as_ptr())
        };
        Ok(engine)
    }

    /// Recognises `pix`; with `code_lines`, also returns the lines that look like a wallet
    /// address, with their boxes, for a re-read.
    fn recognise(
        &mut self,
        pix: &Pix,
        code_lines: bool,
    ) -> Result<(String, Vec<CodeLine>), ToolError> {
        // The call's time limit becomes Tesseract's deadline, so an abandoned call stops
        // instead of running on detached.
        let deadline_ms = masf_tools::deadline::get().map(|at| {
            let left = at.saturating_duration_since(std::time::Instant::now());
            c_int::try_from(left.as_millis())
                .unwrap_or(c_int::MAX)
                .max(1)
        });
        // SAFETY: valid handle and PIX (Tesseract clones the PIX it keeps); the monitor lives
        // until Recognize returns and is deleted once; the text returned is copied and freed
        // with TessDeleteText; Clear drops the page's results so the next image starts from
        // the same state.
        unsafe {
            omp_set_max_active_levels(0);
            capi::TessBaseAPISetImage2(self.0, pix.0);
            let rc = match deadline_ms {
                Some(ms) => {
                    let monitor = capi::TessMonitorCreate();
                    if monitor.is_null() {
                        capi::TessBaseAPIRecognize(self.0, std::ptr::null_mut())
                    } else {
                        capi::TessMonitorSetDeadlineMSecs(monitor, ms);
                        let rc = capi::TessBaseAPIRecognize(self.0, monitor);
                        capi::TessMonitorDelete(monitor);
                        rc
                    }
                }
                None => capi::TessBaseAPIRecognize(self.0, std::ptr::null_mut()),
            };
            let out = if rc != 0 {
                Err(fail(if masf_tools::deadline::passed() {
                    "OCR stopped at the call's time limit"
                } else {
                    "tesseract could not recognise the image"
                }))
            } else {
                let text = capi::TessBaseAPIGetUTF8Text(self.0);
                if text.is_null() {
                    Err(fail("tesseract returned no text"))
                } else {
                    let s = CStr::from_ptr(text).to_string_lossy().into_owned();
                    capi::TessDeleteText(text);
                    Ok((
                        s,
                        if code_lines {
                            self.code_lines()
                        } else {
                            Vec::new()
                        },
                    ))
                }
            };
            capi::TessBaseAPIClear(self.0);
            out
        }
    }

    /// The recognised lines shaped like an address, with their boxes (call after Recognize).
    fn code_lines(&mut self) -> Vec<CodeLine> {
        let mut out = Vec::new();
        // SAFETY: valid handle after a successful Recognize; the iterator is deleted once;
        // texts are copied and freed with TessDeleteText.
        unsafe {
            let it = capi::TessBaseAPIGetIterator(self.0);
            if it.is_null() {
                return out;
            }
            let level = capi::TessPageIteratorLevel_RIL_TEXTLINE;
            loop {
                let text = capi::TessResultIteratorGetUTF8Text(it, level);
                if !text.is_null() {
                    let line = CStr::from_ptr(text).to_string_lossy().trim().to_string();
                    capi::TessDeleteText(text);
                    if let Some(alphabet) = Alphabet::of(&line) {
                        let page = capi::TessResultIteratorGetPageIterator(it);
                        let (mut l, mut t, mut r, mut b) = (0, 0, 0, 0);
                        if capi::TessPageIteratorBoundingBox(
                            page, level, &mut l, &mut t, &mut r, &mut b,
                        ) != 0
                        {
                            out.push(CodeLine {
                                alphabet,
                                bounds: (l, t, r, b),
                            });
                        }
                    }
                }
                if capi::TessResultIteratorNext(it, level) == 0 {
                    break;
                }
            }
            capi::TessResultIteratorDelete(it);
        }
        out
    }
}

/// Idle engines by language set.
fn pool() -> &'static Mutex<HashMap<String, Vec<Engine>>> {
    static POOL: OnceLock<Mutex<HashMap<String, Vec<Engine>>>> = OnceLock::new();
    POOL.get_or_init(|| Mutex::new(HashMap::new()))
}

fn pool_key(lang: &str, alphabet: Option<Alphabet>) -> String {
    match alphabet {
        None => lang.to_string(),
        Some(a) => format!("{lang}|{}", a.name()),
    }
}

fn take_engine(lang: &str, alphabet: Option<Alphabet>) -> Result<Engine, ToolError> {
    let key = pool_key(lang, alphabet);
    let idle = pool()
        .lock()
        .ok()
        .and_then(|mut p| p.get_mut(&key).and_then(Vec::pop));
    match idle {
        Some(e) => Ok(e),
        None => Engine::start(lang, alphabet),
    }
}

fn give_back(lang: &str, alphabet: Option<Alphabet>, engine: Engine) {
    let lang = pool_key(lang, alphabet);
    let lang = lang.as_str();
    let keep = std::thread::available_parallelism().map_or(2, |n| n.get());
    if let Ok(mut p) = pool().lock() {
        let v = p.entry(lang.to_string()).or_default();
        if v.len() < keep {
            v.push(engine);
        }
    }
}

/// `tesseract-<version>/leptonica-<version>`, as the libraries report them.
pub fn engine_versions() -> &'static str {
    static V: OnceLock<String> = OnceLock::new();
    V.get_or_init(|| {
        // SAFETY: both return static NUL-terminated strings (getLeptonicaVersion a new one,
        // freed with lept_free).
        unsafe {
            let tess = CStr::from_ptr(capi::TessVersion())
                .to_string_lossy()
                .into_owned();
            let lept_ptr = capi::getLeptonicaVersion();
            let lept = if lept_ptr.is_null() {
                "leptonica-unknown".to_string()
            } else {
                let s = CStr::from_ptr(lept_ptr).to_string_lossy().into_owned();
                capi::lept_free(lept_ptr.cast());
                s
            };
            format!("tesseract-{tess}/{lept}")
        }
    })
}

/// Checks a `lang` argument: Tesseract language codes joined by `+`.
fn valid_lang(lang: &str) -> bool {
    !lang.is_empty()
        && lang.len() <= 64
        && lang
            .split('+')
            .all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
}

/// Reads the image at `path` of the source: through its file system, or the source file
/// itself when the source is one file (any path naming it, or `/`).
fn read_image(ctx: &SourceCtx, partition: Option<&str>, path: &str) -> Result<Vec<u8>, ToolError> {
    let single = ctx.scan.file_systems().is_empty() && partition.is_none();
    let bytes = if single {
        let name = ctx
            .scan
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if path != "/" && path.trim_start_matches('/') != name {
            return Err(fail(format!(
                "this source is the single file {name:?}: use path \"/\" or \"/{name}\""
            )));
        }
        ctx.scan
            .root
            .bytes
            .clone()
            .ok_or_else(|| fail("the source's bytes are not readable"))?
    } else {
        let fs = ctx
            .scan
            .file_system(partition)
            .map_err(|e| fail(ctx.scrub(&e.to_string())))?;
        fs.open(path)?
    };
    let size = bytes.len();
    if size > MAX_IMAGE_BYTES {
        return Err(fail(format!(
            "{path} is {size} bytes, more than the {MAX_IMAGE_BYTES} an image may have here"
        )));
    }
    let mut buf = vec![0u8; size as usize];
    bytes.read_exact_at(0, &mut buf)?;
    Ok(buf)
}

/// The recognised text of `bytes` with `lang` and `mode`, and the image size.
pub fn recognise(
    bytes: &[u8],
    lang: &str,
    mode: Preprocess,
) -> Result<(String, (i32, i32)), ToolError> {
    let format = image_format(bytes).ok_or_else(|| {
        fail(format!(
            "not an image (no PNG, JPEG, GIF, TIFF, BMP or WebP signature; starts {})",
            hex_head(bytes)
        ))
    })?;
    let pix = decode(bytes).map_err(|e| fail(format!("{format}: {e}")))?;
    let size = pix.size();
    let pix = preprocess(pix, mode)?;
    let mut engine = take_engine(lang, None)?;
    let page = engine.recognise(&pix, true);
    give_back(lang, None, engine);
    let (mut text, code_lines) = page?;
    for line in code_lines {
        let reread = reread(&pix, lang, &line)?;
        if !text.ends_with('\n') {
            text.push('\n');
        }
        let (l, t, r, b) = line.bounds;
        text.push_str(&format!(
            "{REREAD_MARK} box={l},{t},{r},{b} alphabet={}\n{}\n",
            line.alphabet.name(),
            reread.trim()
        ));
    }
    Ok((text, size))
}

/// Starts each line of the output that re-reads an address-like line.
pub const REREAD_MARK: &str = "# re-read line";

/// Pixels added around a line's box before it is re-read.
const LINE_MARGIN: i32 = 8;

/// Re-reads one line of `pix` with a line engine restricted to the line's address alphabet.
fn reread(pix: &Pix, lang: &str, line: &CodeLine) -> Result<String, ToolError> {
    let (w, h) = pix.size();
    let (l, t, r, b) = line.bounds;
    let (x0, y0) = ((l - LINE_MARGIN).max(0), (t - LINE_MARGIN).max(0));
    let (x1, y1) = ((r + LINE_MARGIN).min(w), (b + LINE_MARGIN).min(h));
    if x1 <= x0 || y1 <= y0 {
        return Ok(String::new());
    }
    // SAFETY: a new BOX, destroyed below; pixClipRectangle returns a new PIX owned by `crop`.
    let crop = unsafe {
        let mut bx = capi::boxCreate(x0, y0, x1 - x0, y1 - y0);
        if bx.is_null() {
            return Err(fail("leptonica could not make a box"));
        }
        let clipped = capi::pixClipRectangle(pix.0, bx, std::ptr::null_mut());
        capi::boxDestroy(&mut bx);
        Pix::from(clipped, "clip a line")?
    };
    let alphabet = Some(line.alphabet);
    let mut engine = take_engine(lang, alphabet)?;
    let result = engine.recognise(&crop, false);
    give_back(lang, alphabet, engine);
    Ok(result?.0)
}

/// A recognised line shaped like a wallet address.
#[derive(Debug, Clone, Copy)]
struct CodeLine {
    alphabet: Alphabet,
    /// left, top, right, bottom
    bounds: (i32, i32, i32, i32),
}

/// The alphabet of an address form, for a restricted re-read of its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alphabet {
    /// `0x` + hex (ETH/EVM).
    Hex,
    /// Base58 (TRON, BTC legacy).
    Base58,
    /// bech32 (`bc1…`, `tb1…`).
    Bech32,
}

impl Alphabet {
    /// Its name in the output.
    pub fn name(self) -> &'static str {
        match self {
            Self::Hex => "hex",
            Self::Base58 => "base58",
            Self::Bech32 => "bech32",
        }
    }

    fn chars(self) -> &'static str {
        match self {
            Self::Hex => "0123456789abcdefABCDEFx",
            Self::Base58 => "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz",
            Self::Bech32 => "qpzry9x8gf2tvdw0s3jn54khce6mua7lbc1",
        }
    }

    /// The alphabet of a line read as (roughly) one address: its prefix under OCR look-alikes
    /// and an address length, letters and digits only.
    pub fn of(line: &str) -> Option<Alphabet> {
        let joined: String = line.chars().filter(|c| *c != ' ').collect();
        if !joined
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'|')
            || !joined.bytes().any(|b| b.is_ascii_digit())
        {
            return None;
        }
        let lower = joined.to_ascii_lowercase();
        let n = joined.len();
        if (lower.starts_with("0x") || lower.starts_with("ox")) && (40..=44).contains(&n) {
            Some(Self::Hex)
        } else if joined.starts_with('T') && (32..=36).contains(&n) {
            Some(Self::Base58)
        } else if ["bc1", "bcl", "bci", "tb1", "tbl"]
            .iter()
            .any(|p| lower.starts_with(p))
            && (40..=64).contains(&n)
        {
            Some(Self::Bech32)
        } else {
            None
        }
    }
}

fn hex_head(bytes: &[u8]) -> String {
    let n = bytes.len().min(8);
    if n == 0 {
        return "empty".into();
    }
    bytes[..n].iter().map(|b| format!("{b:02x}")).collect()
}

/// The `ocr_image` tool.
pub struct OcrImage;

impl OcrImage {
    /// As a catalog entry.
    pub fn arc() -> Arc<dyn Tool> {
        Arc::new(OcrImage)
    }
}

/// Header line of an `ocr_image` output.
pub fn header(path: &str, lang: &str, mode: Preprocess, size: (i32, i32)) -> String {
    format!(
        "# ocr_image path={path} engine={} lang={lang} preprocess={} size={}x{}",
        engine_versions(),
        mode.as_str(),
        size.0,
        size.1
    )
}

impl Tool for OcrImage {
    fn name(&self) -> &str {
        "ocr_image"
    }
    fn description(&self) -> &str {
        "Recognise the text in one image of the evidence (a screenshot, a photo of a document) with Tesseract OCR. The output is a header line (# ocr_image path=… engine=… lang=… preprocess=… size=WxH) followed by the recognised text, line by line as laid out in the image; then, for each line that looks like a wallet address, a line '# re-read line box=L,T,R,B alphabet=hex|base58|bech32' and that line read again alone, restricted to the address alphabet (usually the more exact reading). OCR misreads look-alike characters (O/0, l/I/1) and may split long codes with spaces: treat addresses and hashes as read, and check them. lang is a '+'-joined set of Tesseract languages (default \"eng\"; \"chi_sim\" and \"chi_tra\" for Chinese, several times slower); preprocess is gray (default: 8-bit grey, measured best), none (the decoded image as is, what the tesseract CLI reads), upscale (grey, 2x) or binarise (grey, 2x, Otsu). A file that is not a PNG/JPEG/GIF/TIFF/BMP/WebP image, or a corrupt one, is an error."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several: a 1-based partition index or a partition name. Omit when there is only one."},
            "path": {"type": "string", "description": "Absolute path of the image inside the evidence, '/'-separated ('/' for a source that is one image file)."},
            "lang": {"type": "string", "description": "Tesseract languages joined by '+', e.g. \"eng\" (default) or \"eng+chi_sim+chi_tra\"."},
            "preprocess": {"type": "string", "enum": ["none", "gray", "upscale", "binarise"], "description": "Image preprocessing before recognition (default gray)."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        // A screenshot is read inside a tree, or as a source that is the one image file.
        Applicability {
            tree: true,
            image: false,
            file: true,
        }
    }
    fn version(&self) -> &str {
        static V: OnceLock<String> = OnceLock::new();
        V.get_or_init(|| format!("1 {}", engine_versions()))
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let s = |key: &str| -> Result<Option<&str>, ToolError> {
            match a.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(v)) => Ok(Some(v.as_str())),
                Some(_) => Err(ToolError::InvalidArgs(format!("{key} must be a string"))),
            }
        };
        let raw_path =
            s("path")?.ok_or_else(|| ToolError::InvalidArgs("path is required".into()))?;
        let path = normalize_path(raw_path);
        let lang = s("lang")?.unwrap_or(DEFAULT_LANG);
        if !valid_lang(lang) {
            return Err(ToolError::InvalidArgs(format!(
                "lang {lang:?} is not Tesseract language codes joined by '+'"
            )));
        }
        let mode = match s("preprocess")? {
            None => DEFAULT_PREPROCESS,
            Some(p) => Preprocess::parse(p).ok_or_else(|| {
                ToolError::InvalidArgs(format!(
                    "preprocess must be one of none, gray, upscale, binarise (not {p:?})"
                ))
            })?,
        };
        let bytes = read_image(ctx, s("partition")?, &path)?;
        let (text, size) =
            recognise(&bytes, lang, mode).map_err(|e| fail(format!("{path}: {e}")))?;
        let mut out = header(&path, lang, mode, size);
        out.push('\n');
        out.push_str(&text);
        if !out.ends_with('\n') {
            out.push('\n');
        }
        Ok(ToolOutput::text(out))
    }
}
