//! `masf`: the MASForensics command line. It parses arguments, calls `masf-api`, and prints.
//! No forensic logic lives here.

mod progress;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};

/// Exit status: success.
const EXIT_OK: u8 = 0;
/// Exit status: the command ran and failed (invalid case, unreadable evidence, mismatch …).
const EXIT_FAILURE: u8 = 1;
/// Exit status: the command line itself was wrong (clap uses 2 as well).
const EXIT_USAGE: u8 = 2;
/// The run stopped before it was done: paused, or halted at a budget cap (`masf resume`).
const EXIT_UNFINISHED: u8 = 3;
/// Another process is running the case (it holds the case's run lease); `--wait` waits for it.
const EXIT_BUSY: u8 = 4;

#[derive(Parser)]
#[command(
    name = "masf",
    version,
    about = "MASForensics: multi-device forensic case analysis with grounded, auditable findings",
    long_about = "MASForensics works one case across many evidence sources. Every command that \
works on a case takes the case file (case.yaml) as its positional argument.\n\n\
Exit codes: 0 success, 1 failure (invalid case, unreadable evidence, integrity mismatch, \
inconsistent case store), 2 usage error, 3 run unfinished (paused or halted at a budget cap), \
4 case busy (another process is running it).",
    after_help = "Machine-readable output: commands with --json print one JSON document on \
stdout; --jsonl prints one JSON object per line. Progress and diagnostics go to stderr."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Options shared by every command that works on a case.
#[derive(Args, Clone)]
struct CaseArgs {
    /// The case file (case.yaml).
    case: PathBuf,
    /// Work folder holding the case store [default: <case dir>/.masf/].
    #[arg(long, value_name = "DIR")]
    work: Option<PathBuf>,
    /// Application configuration [default: config.yaml beside the case file, else built-in defaults].
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

/// Options shared by the examiner's tag, bookmark and note commands.
#[derive(Args, Clone)]
struct MarkArgs {
    /// Why (recorded with the event).
    #[arg(long, default_value = "")]
    reason: String,
    /// Who marks [default: the examiner named in case.yaml].
    #[arg(long)]
    examiner: Option<String>,
    /// Print JSON on stdout.
    #[arg(long)]
    json: bool,
}

/// What a TARGET is, for the marking commands' help.
const TARGET_HELP: &str = "TARGET is what is marked: a phenomenon (ph-000012), one of its \
facts (ph-000012#fact2, from 1), an entity (ent-000003), an actor (actor-000003, see `masf \
actors --all`), a timeline entry (ph-000012#time1, the `entry` of `masf timeline --json`), a \
file or folder inside a source (SOURCE[#LAYER]:/path, LAYER a 1-based partition index or a \
partition name when the source holds several file systems, e.g. src-usb:/DCIM/a.jpg) or a hit \
of a logged search (inv-000014#hit3: the third hit of the `search_index` invocation that \
`masf search` names beside each hit). A \
target that does not exist is refused, naming it and what exists.\n\n\
Every mark is an examiner event in the case's append-only log (who, when, why), undone only by \
a later event; marks need no run lease (they can be made while `masf run` works) and are kept \
by every later run, rerun and repair.";

#[derive(Subcommand)]
enum Command {
    /// Serve tool calls on stdin/stdout for a run of this program (internal: `masf run`,
    /// `resume` and the desktop app start it, one per source and parallel agent, so that a
    /// tool that crashes or runs away ends only its own process).
    #[command(hide = true)]
    ToolWorker,
    /// Write a case.yaml for the given evidence files or folders (types are left for sniffing).
    Init {
        /// Folder where case.yaml is written (created if needed).
        dir: PathBuf,
        /// Evidence files or folders.
        #[arg(required = true)]
        evidence: Vec<PathBuf>,
        /// Case id [default: derived from the folder name].
        #[arg(long)]
        id: Option<String>,
        /// Overwrite an existing case.yaml.
        #[arg(long)]
        force: bool,
    },
    /// Run the case: intake (register every source, hash every evidence file), then triage (each
    /// source examined by the agent of the plugin that fits it), then entity resolution
    /// (coreference hypotheses between the entities found; see `masf links`, `masf actors`).
    /// Idempotent and resumable.
    Run {
        #[command(flatten)]
        case: CaseArgs,
        /// Where the report is written [default: <case dir>/masf-report/].
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Print the run summary as JSON on stdout.
        #[arg(long, conflicts_with = "events")]
        json: bool,
        /// Stream what the run records as it goes, one JSON object a line on stdout
        /// (`{"stream":"event",…}` for each event, `{"stream":"invocation",…}` for each tool
        /// call); the summary then goes to stderr.
        #[arg(long, value_name = "FORMAT", value_parser = ["jsonl"])]
        events: Option<String>,
        /// When another process is running the case, wait until it ends instead of exiting
        /// with status 4.
        #[arg(long)]
        wait: bool,
    },
    /// Ask a running `masf run` of this case (in another process) to pause at its next tool
    /// call; `masf resume` continues.
    Pause {
        #[command(flatten)]
        case: CaseArgs,
        /// Why (recorded with the request).
        #[arg(long, default_value = "")]
        reason: String,
        /// Who asks [default: the examiner named in case.yaml].
        #[arg(long)]
        examiner: Option<String>,
    },
    /// Continue a paused, budget-halted or interrupted run, optionally granting more budget
    /// (`--grant tool_calls=500`, repeatable; budgets: tool_calls, rounds, wall_clock_s, tokens).
    Resume {
        #[command(flatten)]
        case: CaseArgs,
        /// COUNTER=AMOUNT added to a budget cap for this run.
        #[arg(long, value_name = "COUNTER=AMOUNT", value_parser = parse_grant)]
        grant: Vec<(String, u64)>,
        /// Why (recorded with the grants).
        #[arg(long, default_value = "")]
        reason: String,
        /// Who grants [default: the examiner named in case.yaml].
        #[arg(long)]
        examiner: Option<String>,
        /// Print the run summary as JSON on stdout.
        #[arg(long)]
        json: bool,
        /// When another process is running the case, wait until it ends instead of exiting
        /// with status 4.
        #[arg(long)]
        wait: bool,
    },
    /// Repair an inconsistent case store (see `masf status`): append a `GraphRebuilt` event that
    /// supersedes the graph's events (nothing is deleted), derive the graph again by running
    /// the case (tool calls served from the cache), make the examiner's same_as decisions again
    /// on it, and write the report. A consistent store is left alone; holes in the logs cannot
    /// be repaired (exit 1). Takes the case's run lease like `masf run`.
    Repair {
        #[command(flatten)]
        case: CaseArgs,
        /// Where the report is written [default: <case dir>/masf-report/].
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Print what was done as JSON on stdout.
        #[arg(long)]
        json: bool,
        /// When another process is running the case, wait until it ends instead of exiting
        /// with status 4.
        #[arg(long)]
        wait: bool,
    },
    /// Summarise a case: sources, their hashes, the run, and the store's consistency check
    /// (exit 1 when the store is inconsistent: `masf repair`).
    Status {
        #[command(flatten)]
        case: CaseArgs,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Dump the case's event log.
    Events {
        #[command(flatten)]
        case: CaseArgs,
        /// One JSON object per event and line (the default is a readable table).
        #[arg(long)]
        jsonl: bool,
    },
    /// The cross-source timeline: every event time the agents recorded, converted from its raw
    /// encoding (Unix s/ms/µs/ns, Apple absolute s/ns, Windows FILETIME, WebKit, FAT local,
    /// ISO 8601, naive local text) to UTC, merged across sources and sorted. Naive times are read
    /// in their source's timezone (case.yaml); times in a DST gap or fold are placed by the
    /// compatible rule and flagged with the other reading; values that cannot be converted are
    /// listed last, flagged with the reason, never dropped. The table shows the case's zone.
    #[command(
        after_help = "Exports follow the plaso/Timesketch columns: datetime (ISO 8601 UTC, µs), \
timestamp (µs since 1970), timestamp_desc, message, then source, source_id, phenomenon_id, entry, \
agent, category, raw_value, raw_encoding, zone (the zone the raw value was read in), utc, \
case_time, case_zone, flag (dst_gap, dst_fold, unconvertible), note, alternative, context.\n\n\
Bounds: RFC 3339 with an offset (2025-02-18T13:40:00Z) or YYYY-MM-DD[ HH:MM[:SS]] in the \
case's zone; the range is [--from, --to). Unconvertible entries have no time and are kept."
    )]
    Timeline {
        #[command(flatten)]
        case: CaseArgs,
        /// One JSON document: {case_zone, count, unconvertible, ambiguous, entries}.
        #[arg(long, group = "format")]
        json: bool,
        /// One JSON object per entry and line (Timesketch JSONL import).
        #[arg(long, group = "format")]
        jsonl: bool,
        /// CSV with a header row (Timesketch CSV import); cells a spreadsheet would run as a
        /// formula are prefixed with `'`.
        #[arg(long, group = "format")]
        csv: bool,
        /// plaso's l2tcsv (log2timeline CSV): UTC date and time, MACB, one row per placed time.
        #[arg(long, group = "format")]
        l2tcsv: bool,
        /// Only this source (repeat for several).
        #[arg(long = "source", value_name = "ID")]
        sources: Vec<String>,
        /// Entries at or after this time.
        #[arg(long, value_name = "TIME")]
        from: Option<String>,
        /// Entries before this time.
        #[arg(long, value_name = "TIME")]
        to: Option<String>,
        /// Only entries that concern this actor (an id from `masf actors`, or one of its
        /// entities): from a source it owns, or mentioning one of its identifiers.
        #[arg(long, value_name = "ACTOR")]
        actor: Option<String>,
        /// Only entries the examiner tagged TAG: tagged entries, entries of tagged phenomena
        /// (or whose facts are tagged), of phenomena that observed a tagged entity's
        /// identifiers, and entries that concern a tagged actor (as --actor).
        #[arg(long, value_name = "TAG")]
        tag: Option<String>,
    },
    /// Show what an evidence path is: its type and why (the device a plugin recognises, such
    /// as an Android disk or an iOS extraction, else the form), its form (disk image, archive,
    /// folder, iTunes backup, file), layers, partitions, file systems, encryption, file
    /// counts, EWF metadata.
    Inspect {
        /// Evidence file (first segment of a split image) or folder.
        path: PathBuf,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
        /// Do not walk the file systems to count files (faster on large images).
        #[arg(long)]
        no_count: bool,
        /// The environment variable holding the password of an encrypted iTunes/Finder backup
        /// (its name, never the password: `export MASF_BACKUP_PW=…` first).
        #[arg(long, value_name = "VAR")]
        backup_password_env: Option<String>,
    },
    /// List entries inside any layer. SPEC is EVIDENCE[#PARTITION]:/path, PARTITION a 1-based
    /// index or a partition name, e.g. blk0_sda.bin#userdata:/data. Control characters and
    /// bidi overrides in names are shown as escapes (\u{1b}); --json keeps names exact.
    Ls {
        spec: String,
        /// List the whole tree below the path.
        #[arg(short, long)]
        recursive: bool,
        /// One JSON object per entry and line (path, size, times with raw encoding, id, deleted).
        #[arg(long)]
        json: bool,
        /// The Sleuth Kit body file (what `fls -m` writes, for `mactime -b`):
        /// `0|path|inode|mode|uid|gid|size|atime|mtime|ctime|crtime`, times in Unix seconds,
        /// deleted entries marked `(deleted)`. With --recursive for a whole file system.
        #[arg(long, conflicts_with = "json")]
        body: bool,
        /// The environment variable holding the password of an encrypted iTunes/Finder backup
        /// (its name, never the password: `export MASF_BACKUP_PW=…` first).
        #[arg(long, value_name = "VAR")]
        backup_password_env: Option<String>,
    },
    /// Write the exact bytes of a file inside any layer to stdout (SPEC as for ls). The file is
    /// read whole first: if any byte fails its checks (a bad EWF chunk), nothing is written and
    /// the error names the offset.
    Cat {
        spec: String,
        /// The environment variable holding the password of an encrypted iTunes/Finder backup
        /// (its name, never the password: `export MASF_BACKUP_PW=…` first).
        #[arg(long, value_name = "VAR")]
        backup_password_env: Option<String>,
    },
    /// Read the whole media of an EWF image (E01/Ex01), compute the digests it stores (MD5, and
    /// SHA-1 when stored; SHA-256 with --sha256) and compare them (like ewfverify). Exit 1 when
    /// a stored hash does not match or a chunk is corrupt.
    VerifyMedia {
        path: PathBuf,
        /// Also compute the media's SHA-256 (no EWF image stores one; intake records it). By
        /// default only the digests the image stores are computed, as ewfverify does.
        #[arg(long)]
        sha256: bool,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Re-execute one logged tool invocation and compare its output hash with the recorded one.
    /// Exit 1 on a mismatch.
    Rerun {
        #[command(flatten)]
        case: CaseArgs,
        /// The invocation id, e.g. inv-000042.
        invocation: String,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Re-run every logged invocation of the case, check every stored output against its
    /// recorded hash, re-check every verified fact against the output it cites, check the
    /// store's consistency and the hash chains of its logs (naming the first altered, missing or
    /// inserted seq), and check that the chain heads printed in earlier reports are still in the
    /// store. Exit 1 when anything does not re-derive or hold.
    Verify {
        #[command(flatten)]
        case: CaseArgs,
        /// A report.json written earlier from this case's store, whose printed log chain heads
        /// must still be in the store (repeatable).
        #[arg(long, value_name = "REPORT_JSON")]
        against: Vec<PathBuf>,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Write the case report from what is recorded: report.json (schema masforensics.report/1),
    /// a self-contained report.html, report.md, and every tool output under outputs/. Refused
    /// (exit 1) when the store is inconsistent.
    Report {
        #[command(flatten)]
        case: CaseArgs,
        /// The folder to write [default: <case dir>/masf-report/].
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Only the items the examiner tagged, bookmarked or wrote notes on, and what they cite:
        /// their phenomena with the invocations those cite, their entities and actors, the
        /// hypotheses the phenomena bear on and their timeline entries (sources kept whole).
        #[arg(long)]
        tagged_only: bool,
    },
    /// Publish every invocation's exact output bytes as files (`<inv>.out`, `index.jsonl`,
    /// `SHA256SUMS` for `sha256sum -c`), so third parties can check grounding without
    /// MASForensics.
    Outputs {
        #[command(flatten)]
        case: CaseArgs,
        /// The folder to write [default: <case dir>/masf-report/outputs/].
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// List the same_as links between entities (DESIGN §8): each edge's relation (`=`
    /// coreference: one actor; `controlled by`: a wallet and the person who controls it), its
    /// state (live, dormant, approved, retracted), the confidence of its hypothesis, the
    /// identifiers or claims that back it (each citing the identity phenomenon that observed
    /// it) and the examiner's decisions; then the candidate pairs that stayed below the
    /// threshold (state `candidate`, e.g. similar names alone, or a wallet two people claim).
    Links {
        #[command(flatten)]
        case: CaseArgs,
        /// Explain one edge or candidate pair (sa-000003-000007): every piece of evidence with
        /// the phenomenon it cites, that phenomenon's facts and the logged tool invocation each
        /// fact was verified against.
        #[arg(long, value_name = "EDGE")]
        why: Option<String>,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Pin a same_as edge live, whatever its hypothesis says (undoes a retraction). A candidate
    /// pair from `masf links` can be approved too, which creates its edge. Recorded as an
    /// examiner event with who, when and why; nothing is deleted.
    Approve {
        #[command(flatten)]
        case: CaseArgs,
        /// The edge id from `masf links`, e.g. sa-000003-000007.
        edge: String,
        /// Why (required).
        #[arg(long)]
        reason: String,
        /// Who decides [default: the examiner named in case.yaml].
        #[arg(long)]
        examiner: Option<String>,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Veto a same_as edge: its entities no longer join into one actor, whatever its hypothesis
    /// says. The edge stays visible with the decision; a later `approve` undoes it.
    Retract {
        #[command(flatten)]
        case: CaseArgs,
        /// The edge id from `masf links`, e.g. sa-000003-000007.
        edge: String,
        /// Why (required).
        #[arg(long)]
        reason: String,
        /// Who decides [default: the examiner named in case.yaml].
        #[arg(long)]
        examiner: Option<String>,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Put a tag on an item. Tags are free text; Notable, Suspicious, Follow up and Exculpatory
    /// are offered first, and a tag already in use keeps its first spelling (case is ignored).
    #[command(after_help = TARGET_HELP)]
    Tag {
        #[command(flatten)]
        case: CaseArgs,
        /// The item (see below).
        target: String,
        /// The tag, e.g. Suspicious.
        tag: String,
        #[command(flatten)]
        mark: MarkArgs,
    },
    /// Take a tag off an item (recorded as an event; the tag's history stays in the log).
    #[command(after_help = TARGET_HELP)]
    Untag {
        #[command(flatten)]
        case: CaseArgs,
        /// The item (see below).
        target: String,
        /// The tag.
        tag: String,
        #[command(flatten)]
        mark: MarkArgs,
    },
    /// Bookmark an item.
    #[command(after_help = TARGET_HELP)]
    Bookmark {
        #[command(flatten)]
        case: CaseArgs,
        /// The item (see below).
        target: String,
        #[command(flatten)]
        mark: MarkArgs,
    },
    /// Take a bookmark off an item.
    #[command(after_help = TARGET_HELP)]
    Unbookmark {
        #[command(flatten)]
        case: CaseArgs,
        /// The item (see below).
        target: String,
        #[command(flatten)]
        mark: MarkArgs,
    },
    /// Write a note on an item. Each note gets an id (note-000001) that `masf withdraw-note`
    /// takes; notes are never edited, a new note follows a withdrawn one.
    #[command(after_help = TARGET_HELP)]
    Note {
        #[command(flatten)]
        case: CaseArgs,
        /// The item (see below).
        target: String,
        /// The note.
        text: String,
        /// Who writes [default: the examiner named in case.yaml].
        #[arg(long)]
        examiner: Option<String>,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Withdraw a note (recorded as an event; the note stays in the log).
    WithdrawNote {
        #[command(flatten)]
        case: CaseArgs,
        /// The note's id from `masf tags`, e.g. note-000001.
        note: String,
        #[command(flatten)]
        mark: MarkArgs,
    },
    /// List the items the examiner tagged, bookmarked or wrote notes on: what each is, its
    /// tags, bookmark and notes, each with who and when. An item the current graph no longer
    /// holds (after `masf repair` renumbered the records) is listed as recorded, marked `gone`.
    Tags {
        #[command(flatten)]
        case: CaseArgs,
        /// Only items carrying this tag.
        #[arg(long, value_name = "TAG")]
        tag: Option<String>,
        /// Print JSON on stdout: {tags_offered, items}.
        #[arg(long)]
        json: bool,
    },
    /// List the actors: entities joined by live or approved same_as edges, each with its
    /// sources, identifiers, the edges that join it and the documents or screenshots that
    /// mention it. Single-entity actors are counted, and listed with --all (always in JSON).
    Actors {
        #[command(flatten)]
        case: CaseArgs,
        /// Also list actors of one entity.
        #[arg(long)]
        all: bool,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// What was and was not looked at: for each source and each plugin that examined it, every
    /// artefact of the plugin's catalogue with what came of it — parsed (with the phenomena
    /// recorded), could not parse (why), read with nothing recorded, not present (the triage ran
    /// to its end and did not meet it), or not examined. The report has the same tables.
    Coverage {
        #[command(flatten)]
        case: CaseArgs,
        /// Only this source.
        #[arg(long)]
        source: Option<String>,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Build the full-text index of each source (once: a source already indexed by this
    /// version is left as it is). It holds the text of every file — UTF-8, UTF-16, legacy code
    /// pages (GBK, Big5, Shift-JIS…), SQLite rows with their -wal, Office bodies, plist
    /// strings, printable runs of binaries, deleted files the file system still lists — with
    /// identifiers (phones, e-mails, wallets) normalised. Each build is logged as an
    /// `index_text` invocation whose output is the manifest: every file with its SHA-256.
    Index {
        #[command(flatten)]
        case: CaseArgs,
        /// Only this source (repeatable) [default: every source].
        #[arg(long = "source", value_name = "ID")]
        sources: Vec<String>,
        /// Build again even where an index of this version exists.
        #[arg(long)]
        rebuild: bool,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Search the sources' full-text indexes (build them with `masf index`). QUERY is words
    /// (`a b`: both; `a OR b`; `-a`; `"a phrase"`; `word*`), matched whatever their case,
    /// Unicode form (NFC/NFD, full width) or encoding on disk; Chinese and Japanese are found
    /// without spaces. Each source's search is a logged `search_index` invocation, so a fact
    /// recorded from a hit is grounded in it. One hit a line: source, layer:path, where inside
    /// (SQLite row and column, Office part), byte offset, and the context with the match in [[ ]].
    Search {
        #[command(flatten)]
        case: CaseArgs,
        /// What to find.
        query: String,
        /// Read QUERY as one identifier (a phone number in any format, an e-mail, a wallet
        /// address) and find every written form of it.
        #[arg(long, conflicts_with = "regex")]
        identifier: bool,
        /// Read QUERY as a regular expression over normalised identifiers, e.g. 'phone:\+1919.*'.
        #[arg(long)]
        regex: bool,
        /// Only this source (repeatable) [default: every source].
        #[arg(long = "source", value_name = "ID")]
        sources: Vec<String>,
        /// Only files modified at or after this RFC 3339 time.
        #[arg(long, value_name = "TIME")]
        from: Option<String>,
        /// Only files modified before this RFC 3339 time.
        #[arg(long, value_name = "TIME")]
        to: Option<String>,
        /// Most hits shown.
        #[arg(long, default_value_t = 100)]
        limit: u64,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Print the SHA-256 and MD5 of files (the intake's hashing code path).
    Hash {
        /// Files to hash.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// One JSON object per file and line.
        #[arg(long)]
        jsonl: bool,
    },
}

fn main() -> ExitCode {
    restore_sigpipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { EXIT_USAGE } else { EXIT_OK });
        }
    };
    if matches!(cli.command, Command::ToolWorker) {
        let code = masf_api::serve_tool_worker();
        return ExitCode::from(u8::try_from(code).unwrap_or(EXIT_FAILURE));
    }
    // Tool calls of this process's runs are made in `masf tool-worker` processes.
    if let Ok(me) = std::env::current_exe() {
        masf_api::run_tools_in_workers(me, vec!["tool-worker".into()]);
    }
    init_tracing();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// `masf events --jsonl | head` must end quietly like any Unix tool, not panic on a closed pipe.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: resetting SIGPIPE to its default action before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("MASF_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

fn run(cli: Cli) -> anyhow::Result<u8> {
    match cli.command {
        Command::ToolWorker => {
            Ok(u8::try_from(masf_api::serve_tool_worker()).unwrap_or(EXIT_FAILURE))
        }
        Command::Hash { files, jsonl } => cmd_hash(&files, jsonl),
        Command::Init {
            dir,
            evidence,
            id,
            force,
        } => cmd_init(&dir, &evidence, id, force),
        Command::Run {
            case,
            out,
            json,
            events,
            wait,
        } => cmd_run(&case, out, json, events.is_some(), wait),
        Command::Pause {
            case,
            reason,
            examiner,
        } => cmd_pause(&case, &reason, examiner),
        Command::Resume {
            case,
            grant,
            reason,
            examiner,
            json,
            wait,
        } => cmd_resume(&case, &grant, &reason, examiner, json, wait),
        Command::Repair {
            case,
            out,
            json,
            wait,
        } => cmd_repair(&case, out, json, wait),
        Command::Status { case, json } => cmd_status(&case, json),
        Command::Events { case, jsonl } => cmd_events(&case, jsonl),
        Command::Timeline {
            case,
            json,
            jsonl,
            csv,
            l2tcsv,
            sources,
            from,
            to,
            actor,
            tag,
        } => cmd_timeline(
            &case,
            if l2tcsv {
                TimelineFormat::L2tcsv
            } else {
                TimelineFormat::pick(json, jsonl, csv)
            },
            masf_api::TimelineQuery {
                sources,
                from,
                to,
                actor,
                tag,
            },
        ),
        Command::Inspect {
            path,
            json,
            no_count,
            backup_password_env,
        } => cmd_inspect(&path, json, !no_count, backup_password_env.as_deref()),
        Command::Ls {
            spec,
            recursive,
            json,
            body,
            backup_password_env,
        } => cmd_ls(&spec, recursive, json, body, backup_password_env.as_deref()),
        Command::Cat {
            spec,
            backup_password_env,
        } => cmd_cat(&spec, backup_password_env.as_deref()),
        Command::Rerun {
            case,
            invocation,
            json,
        } => cmd_rerun(&case, &invocation, json),
        Command::Verify {
            case,
            against,
            json,
        } => cmd_verify(&case, against, json),
        Command::Outputs { case, out } => cmd_outputs(&case, out),
        Command::Report {
            case,
            out,
            tagged_only,
        } => cmd_report(&case, out, tagged_only),
        Command::VerifyMedia { path, sha256, json } => cmd_verify_media(&path, sha256, json),
        Command::Links { case, why, json } => match why {
            Some(edge) => cmd_why(&case, &edge, json),
            None => cmd_links(&case, json),
        },
        Command::Approve {
            case,
            edge,
            reason,
            examiner,
            json,
        } => cmd_decide(&case, &edge, &reason, examiner, json, true),
        Command::Retract {
            case,
            edge,
            reason,
            examiner,
            json,
        } => cmd_decide(&case, &edge, &reason, examiner, json, false),
        Command::Actors { case, all, json } => cmd_actors(&case, all, json),
        Command::Tag {
            case,
            target,
            tag,
            mark,
        } => cmd_mark(&case, &target, &masf_api::MarkAct::Tag { tag }, &mark),
        Command::Untag {
            case,
            target,
            tag,
            mark,
        } => cmd_mark(&case, &target, &masf_api::MarkAct::Untag { tag }, &mark),
        Command::Bookmark { case, target, mark } => {
            cmd_mark(&case, &target, &masf_api::MarkAct::Bookmark, &mark)
        }
        Command::Unbookmark { case, target, mark } => {
            cmd_mark(&case, &target, &masf_api::MarkAct::Unbookmark, &mark)
        }
        Command::Note {
            case,
            target,
            text,
            examiner,
            json,
        } => cmd_mark(
            &case,
            &target,
            &masf_api::MarkAct::Note { text },
            &MarkArgs {
                reason: String::new(),
                examiner,
                json,
            },
        ),
        Command::WithdrawNote { case, note, mark } => cmd_withdraw_note(&case, &note, &mark),
        Command::Tags { case, tag, json } => cmd_tags(&case, tag.as_deref(), json),
        Command::Coverage { case, source, json } => cmd_coverage(&case, source.as_deref(), json),
        Command::Index {
            case,
            sources,
            rebuild,
            json,
        } => cmd_index(&case, &sources, rebuild, json),
        Command::Search {
            case,
            query,
            identifier,
            regex,
            sources,
            from,
            to,
            limit,
            json,
        } => {
            let mode = if identifier {
                masf_api::SearchMode::Identifier
            } else if regex {
                masf_api::SearchMode::Regex
            } else {
                masf_api::SearchMode::Words
            };
            let request = masf_api::SearchRequest {
                query,
                mode,
                sources,
                from,
                to,
                limit: Some(limit),
            };
            cmd_search(&case, &request, json)
        }
    }
}

fn open(case: &CaseArgs) -> anyhow::Result<masf_api::CaseCtx> {
    masf_api::open_case(&masf_api::OpenCase {
        case_file: case.case.clone(),
        work: case.work.clone(),
        config: case.config.clone(),
    })
    .with_context(|| format!("opening case {}", case.case.display()))
}

fn cmd_index(case: &CaseArgs, sources: &[String], rebuild: bool, json: bool) -> anyhow::Result<u8> {
    let mut ctx = open(case)?;
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let mut last = std::time::Instant::now();
    let mut progress = |source: &str, p: &masf_api::IndexProgress| {
        if last.elapsed() >= std::time::Duration::from_secs(2) {
            last = std::time::Instant::now();
            eprintln!(
                "indexing {source}: {} files, {} MiB — {}",
                p.files,
                p.bytes >> 20,
                masf_evidence::fs::visible(&masf_evidence::fs::shorten(&p.path))
            );
        }
    };
    let done = masf_api::index(
        &mut ctx,
        sources,
        rebuild,
        &masf_api::SystemClock,
        &cancel,
        &mut progress,
    )?;
    let failed = done.iter().any(|d| d.outcome == "failed");
    if json {
        println!("{}", serde_json::to_string_pretty(&done)?);
    } else {
        for d in &done {
            match d.outcome.as_str() {
                "built" => println!(
                    "{}: indexed {} files ({} skipped), invocation {}",
                    d.source_id,
                    d.files,
                    d.skipped,
                    d.invocation_id.as_deref().unwrap_or("-")
                ),
                "current" => println!(
                    "{}: already indexed (use --rebuild to build again)",
                    d.source_id
                ),
                _ => println!(
                    "{}: FAILED: {}",
                    d.source_id,
                    d.error.as_deref().unwrap_or("unknown error")
                ),
            }
        }
    }
    Ok(if failed { EXIT_FAILURE } else { EXIT_OK })
}

fn cmd_search(
    case: &CaseArgs,
    request: &masf_api::SearchRequest,
    json: bool,
) -> anyhow::Result<u8> {
    let mut ctx = open(case)?;
    let found = masf_api::search(&mut ctx, request, &masf_api::SystemClock)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&found)?);
        return Ok(EXIT_OK);
    }
    for n in &found.not_searched {
        eprintln!("{}: not searched: {}", n.source_id, n.reason);
    }
    for h in &found.hits {
        println!(
            "{}\t{}\t{}",
            h.source_id,
            masf_api::render_search_hit(&h.hit),
            h.invocation_id
        );
    }
    eprintln!(
        "{} hit(s) in {} source(s)",
        found.hits.len(),
        found.searched.len()
    );
    Ok(EXIT_OK)
}

fn cmd_links(case: &CaseArgs, json: bool) -> anyhow::Result<u8> {
    let ctx = open(case)?;
    let links = masf_api::links(&ctx)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&links)?);
        return Ok(EXIT_OK);
    }
    if links.is_empty() {
        println!("no coreference hypotheses yet (run the case first)");
    }
    for link in &links {
        print_link(link);
    }
    Ok(EXIT_OK)
}

fn cmd_why(case: &CaseArgs, edge: &str, json: bool) -> anyhow::Result<u8> {
    let ctx = open(case)?;
    let why = masf_api::why(&ctx, edge)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&why)?);
        return Ok(EXIT_OK);
    }
    let link = &why.explanation.link;
    print_link(link);
    println!(
        "  hypothesis {} ({}), revisions {}",
        link.hypothesis_id,
        format!("{:?}", link.status).to_lowercase(),
        link.revisions.join(", ")
    );
    for e in &why.explanation.evidence {
        println!(
            "  {} {:+.2} — {} [{}]: {}",
            e.edge.edge_type.as_str(),
            e.edge.contribution,
            e.edge.phenomenon_id,
            e.source_id,
            masf_evidence::fs::visible(&e.title)
        );
        println!("      {}", masf_evidence::fs::visible(&e.interpretation));
        for f in &e.facts {
            let inv = why.invocations.get(&f.invocation_id).map_or_else(
                || "(invocation not in the store)".to_string(),
                |i| format!("{} {} on {} ({})", i.tool, i.args, i.source_id, i.status),
            );
            println!(
                "      {} {:?} — verified in {}: {}",
                f.fact_type.as_str(),
                masf_evidence::fs::visible(&f.value),
                f.invocation_id,
                masf_evidence::fs::visible(&inv)
            );
        }
    }
    Ok(EXIT_OK)
}

fn entity_line(e: &masf_api::EntityRef) -> String {
    let label = if e.label.is_empty() {
        String::new()
    } else {
        format!(" {:?}", e.label)
    };
    format!("{}{label} ({} {})", e.id, e.source_id, e.context)
}

fn print_link(link: &masf_api::LinkView) {
    let (first, relation, second) = match link.relation {
        masf_api::Relation::Coreference => (&link.a, "=", &link.b),
        // Control: the controlled entity, then the person (whichever has the lower id).
        masf_api::Relation::Control => {
            if link.b.kind == Some(masf_api::EntityKind::Person) {
                (&link.a, "controlled by", &link.b)
            } else {
                (&link.b, "controlled by", &link.a)
            }
        }
    };
    println!(
        "{:<18} {:<9} {:.3}  {}  {relation}  {}",
        link.id,
        link.state,
        link.confidence,
        entity_line(first),
        entity_line(second)
    );
    for e in &link.evidence {
        println!(
            "    {:<16} {:+.2}  {} {} {} of {}",
            e.edge_type.as_str(),
            e.contribution,
            e.phenomenon_id,
            e.id_type.map(|t| t.as_str()).unwrap_or("?"),
            e.normalized,
            e.entity_id
        );
    }
    for d in &link.decisions {
        let verb = match d.decision {
            masf_api::Decision::Approve => "approved",
            masf_api::Decision::Retract => "retracted",
        };
        println!("    {verb} by {} at {}: {}", d.by, d.at, d.reason);
    }
}

fn cmd_decide(
    case: &CaseArgs,
    edge: &str,
    reason: &str,
    examiner: Option<String>,
    json: bool,
    approve: bool,
) -> anyhow::Result<u8> {
    let ctx = open(case)?;
    let examiner = examiner.unwrap_or_else(|| ctx.case.meta.examiner.clone());
    let clock = std::sync::Arc::new(masf_api::SystemClock);
    let decided = if approve {
        masf_api::approve(&ctx, edge, reason, &examiner, clock)?
    } else {
        masf_api::retract(&ctx, edge, reason, &examiner, clock)?
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&decided)?);
    } else {
        if !decided.recorded {
            println!("{edge} is already {}: nothing recorded", decided.link.state);
        }
        print_link(&decided.link);
        println!(
            "{} actors ({} of several entities)",
            decided.actors, decided.actors_joined
        );
    }
    Ok(EXIT_OK)
}

fn cmd_mark(
    case: &CaseArgs,
    target: &str,
    act: &masf_api::MarkAct,
    mark: &MarkArgs,
) -> anyhow::Result<u8> {
    let ctx = open(case)?;
    let examiner = mark
        .examiner
        .clone()
        .unwrap_or_else(|| ctx.case.meta.examiner.clone());
    let clock = std::sync::Arc::new(masf_api::SystemClock);
    let outcome = masf_api::mark(&ctx, target, act, &mark.reason, &examiner, clock)?;
    print_outcome(&outcome, mark.json)
}

fn cmd_withdraw_note(case: &CaseArgs, note: &str, mark: &MarkArgs) -> anyhow::Result<u8> {
    let ctx = open(case)?;
    let examiner = mark
        .examiner
        .clone()
        .unwrap_or_else(|| ctx.case.meta.examiner.clone());
    let clock = std::sync::Arc::new(masf_api::SystemClock);
    let outcome = masf_api::withdraw_note(&ctx, note, &mark.reason, &examiner, clock)?;
    print_outcome(&outcome, mark.json)
}

fn print_outcome(outcome: &masf_api::MarkOutcome, json: bool) -> anyhow::Result<u8> {
    if json {
        println!("{}", serde_json::to_string_pretty(outcome)?);
        return Ok(EXIT_OK);
    }
    let nothing = if outcome.recorded {
        ""
    } else {
        ": nothing recorded"
    };
    println!("{}{nothing}", masf_evidence::fs::visible(&outcome.message));
    if let Some(item) = &outcome.item {
        print_tagged(item);
    }
    Ok(EXIT_OK)
}

fn cmd_tags(case: &CaseArgs, tag: Option<&str>, json: bool) -> anyhow::Result<u8> {
    let ctx = open(case)?;
    let items = masf_api::tagged(&ctx, tag)?;
    if json {
        let offered = masf_api::tag_names(&ctx)?;
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "tags_offered": offered,
                "items": items,
            }))?
        );
        return Ok(EXIT_OK);
    }
    if items.is_empty() {
        match tag {
            Some(t) => println!("nothing is tagged {t:?}"),
            None => println!("nothing is tagged, bookmarked or noted yet (see `masf tag --help`)"),
        }
    }
    for item in &items {
        print_tagged(item);
    }
    Ok(EXIT_OK)
}

fn print_tagged(item: &masf_api::TaggedRow) {
    let v = masf_evidence::fs::visible;
    let gone = if item.present { "" } else { " [gone]" };
    println!(
        "{} ({}){gone}: {}",
        v(&item.target),
        item.kind,
        v(&item.what)
    );
    let why = |reason: &str| {
        if reason.is_empty() {
            String::new()
        } else {
            format!(": {}", v(reason))
        }
    };
    for t in &item.tags {
        println!(
            "    tag {:?} by {} at {}{}",
            v(&t.tag),
            v(&t.by),
            t.at,
            why(&t.reason)
        );
    }
    if let Some(b) = &item.bookmark {
        println!(
            "    bookmarked by {} at {}{}",
            v(&b.by),
            b.at,
            why(&b.reason)
        );
    }
    for n in &item.notes {
        println!("    {} by {} at {}: {}", n.id, v(&n.by), n.at, v(&n.text));
    }
}

fn cmd_coverage(case: &CaseArgs, source: Option<&str>, json: bool) -> anyhow::Result<u8> {
    let ctx = open(case)?;
    let mut tables = masf_api::coverage(&ctx)?;
    if let Some(id) = source {
        if ctx.case.source(id).is_none() {
            anyhow::bail!("no source {id:?} in the case (masf status lists them)");
        }
        tables.retain(|t| t.source_id == id);
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&tables)?);
        return Ok(EXIT_OK);
    }
    if tables.is_empty() {
        println!("no plugin examined {}", source.unwrap_or("any source"));
    }
    for t in &tables {
        println!(
            "{} — {} ({})",
            t.source_id,
            t.plugin,
            if t.searched {
                "triage finished: what was not read is not present"
            } else {
                "triage did not finish: what was not read was not examined"
            }
        );
        for i in &t.items {
            let mut line = format!(
                "    {:<28} {:<24} {:>6}",
                i.name,
                i.status.as_words(),
                i.records
            );
            if !i.problems.is_empty() {
                line.push_str(&format!("  {}", i.problems.join("; ")));
            }
            println!("{line}");
        }
    }
    Ok(EXIT_OK)
}

fn cmd_actors(case: &CaseArgs, all: bool, json: bool) -> anyhow::Result<u8> {
    let ctx = open(case)?;
    let (all_links, actors) = masf_api::links_and_actors(&ctx)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&actors)?);
        return Ok(EXIT_OK);
    }
    let links: std::collections::HashMap<&str, &masf_api::LinkView> =
        all_links.iter().map(|l| (l.id.as_str(), l)).collect();
    let mut singles = 0;
    for a in &actors {
        if a.entities.len() == 1 && a.mentioned_in.is_empty() && !all {
            singles += 1;
            continue;
        }
        println!(
            "{} {:?}: {} entities in {}",
            a.id,
            a.label,
            a.entities.len(),
            a.sources.join(", ")
        );
        println!("    entities: {}", a.entities.join(", "));
        // What made each join: the relation and the identifiers or claims of its edge.
        for edge in &a.joined_by {
            match links.get(edge.as_str()) {
                Some(l) => {
                    let mut what: Vec<String> = l
                        .evidence
                        .iter()
                        .filter(|e| e.contribution > 0.0)
                        .map(|e| {
                            format!("{} {}", e.id_type.map_or("?", |t| t.as_str()), e.normalized)
                        })
                        .collect();
                    what.sort();
                    what.dedup();
                    println!(
                        "    joined by {edge} ({}, {}): {}",
                        l.relation.as_str(),
                        l.state,
                        what.join("; ")
                    );
                }
                None => println!("    joined by {edge}"),
            }
        }
        if !a.contested.is_empty() {
            println!(
                "    contested (claimed by another actor too): {}",
                a.contested.join(", ")
            );
        }
        for i in &a.identifiers {
            let claimed = if i.claimed_by.is_empty() {
                String::new()
            } else {
                format!("; written as their own by {}", i.claimed_by.join(", "))
            };
            println!(
                "    {:<14} {} ({}{claimed})",
                i.id_type.as_str(),
                i.normalized,
                i.entities.join(", ")
            );
        }
        if !a.mentioned_in.is_empty() {
            println!("    mentioned in: {}", a.mentioned_in.join(", "));
        }
    }
    if singles > 0 {
        println!("{singles} more actor(s) of one entity (--all lists them)");
    }
    Ok(EXIT_OK)
}

fn cmd_hash(files: &[PathBuf], jsonl: bool) -> anyhow::Result<u8> {
    let progress = progress::Bar::new();
    let hashes = masf_api::hash_files(files, &progress)?;
    progress.clear();
    for h in &hashes {
        if jsonl {
            println!("{}", serde_json::to_string(h)?);
        } else {
            println!("sha256 {}  {}", h.digests.sha256, h.path.display());
            println!("md5    {}  {}", h.digests.md5, h.path.display());
        }
    }
    Ok(EXIT_OK)
}

fn cmd_init(
    dir: &std::path::Path,
    evidence: &[PathBuf],
    id: Option<String>,
    force: bool,
) -> anyhow::Result<u8> {
    let written = masf_api::init_case(&masf_api::InitCase {
        dir: dir.to_path_buf(),
        evidence: evidence.to_vec(),
        case_id: id,
        overwrite: force,
    })?;
    println!("{}", written.display());
    Ok(EXIT_OK)
}

fn parse_grant(text: &str) -> Result<(String, u64), String> {
    let (name, amount) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?} is not COUNTER=AMOUNT"))?;
    let amount = amount
        .parse::<u64>()
        .map_err(|e| format!("{amount:?} is not an amount: {e}"))?;
    Ok((name.to_string(), amount))
}

fn cmd_pause(case: &CaseArgs, reason: &str, examiner: Option<String>) -> anyhow::Result<u8> {
    let mut ctx = open(case)?;
    let examiner = examiner.unwrap_or_else(|| ctx.case.meta.examiner.clone());
    masf_api::pause(&mut ctx, &examiner, reason, &masf_api::SystemClock)?;
    println!("pause requested: a running `masf run` stops at its next tool call");
    Ok(EXIT_OK)
}

fn cmd_resume(
    case: &CaseArgs,
    grants: &[(String, u64)],
    reason: &str,
    examiner: Option<String>,
    json: bool,
    wait: bool,
) -> anyhow::Result<u8> {
    let mut ctx = open(case)?;
    let examiner = examiner.unwrap_or_else(|| ctx.case.meta.examiner.clone());
    // The grants are recorded under the lease: a refused resume grants nothing.
    let lease = match lease(&mut ctx, wait)? {
        Ok(lease) => lease,
        Err(code) => return Ok(code),
    };
    masf_api::grant(&mut ctx, grants, &examiner, reason, &masf_api::SystemClock)?;
    run_leased(ctx, &lease, None, json, false)
}

/// Takes the case's run lease, waiting for it with `wait`; `Err(EXIT_BUSY)` when refused (the
/// reason printed).
fn lease(
    ctx: &mut masf_api::CaseCtx,
    wait: bool,
) -> anyhow::Result<Result<masf_api::RunLease, u8>> {
    let case_id = ctx.case.meta.id.clone();
    let mut waiting = |holder: &masf_api::Holder| {
        eprintln!("case {case_id} is being run by {holder}; waiting for it to end");
    };
    let taken = masf_api::take_lease(
        ctx,
        wait.then_some(&mut waiting as &mut dyn FnMut(&masf_api::Holder)),
        &masf_api::SystemClock,
    );
    match taken {
        Ok(lease) => Ok(Ok(lease)),
        Err(e) if e.code == masf_api::ErrorCode::CaseBusy => {
            eprintln!("error: {e} (`--wait` waits for it)");
            Ok(Err(EXIT_BUSY))
        }
        Err(e) => Err(e.into()),
    }
}

fn cmd_run(
    case: &CaseArgs,
    out: Option<PathBuf>,
    json: bool,
    stream: bool,
    wait: bool,
) -> anyhow::Result<u8> {
    let mut ctx = open(case)?;
    let lease = match lease(&mut ctx, wait)? {
        Ok(lease) => lease,
        Err(code) => return Ok(code),
    };
    run_leased(ctx, &lease, out, json, stream)
}

fn run_leased(
    mut ctx: masf_api::CaseCtx,
    lease: &masf_api::RunLease,
    out: Option<PathBuf>,
    json: bool,
    stream: bool,
) -> anyhow::Result<u8> {
    let progress = progress::Bar::new();
    // The stream follows the store from the lease on: this run's records only.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // With --events jsonl the stream goes to stdout; otherwise, on a terminal, it becomes one
    // progress line per phase step.
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr()) && !json;
    let follower = (stream || terminal).then(|| -> anyhow::Result<_> {
        let start = masf_api::Cursor {
            // From the lease's event on: who runs is the run's first record.
            event_seq: lease.seq() - 1,
            invocation_seq: i64::try_from(ctx.store.invocation_count()?).unwrap_or(i64::MAX),
        };
        let (work, stop, bar) = (ctx.work_dir.clone(), stop.clone(), progress.clone());
        Ok(std::thread::spawn(move || {
            let mut phases = progress::Phases::default();
            let mut print = |item: masf_api::StreamItem| {
                if stream {
                    if let Ok(line) = serde_json::to_string(&item) {
                        println!("{line}");
                    }
                } else if let Some(line) = phases.see(&item) {
                    bar.line(&line);
                }
            };
            masf_api::follow(
                &work,
                start,
                &stop,
                std::time::Duration::from_millis(100),
                &mut print,
            )
        }))
    });
    let follower = follower.transpose()?;
    let result = masf_api::run(
        &mut ctx,
        lease,
        &masf_api::RunOptions { out },
        std::sync::Arc::new(masf_api::SystemClock),
        &progress,
    );
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    if let Some(f) = follower {
        match f.join() {
            Ok(r) => {
                r?;
            }
            Err(_) => anyhow::bail!("the event stream's thread panicked"),
        }
    }
    let report = result?;
    progress.clear();
    if stream {
        eprintln!(
            "run {}; report {}",
            report
                .run
                .as_ref()
                .map_or("not started", |r| r.state.as_str()),
            report
                .report
                .as_ref()
                .map_or_else(String::new, |w| w.files.html.display().to_string())
        );
    } else if json {
        // Written as it is serialised: a folder source lists every one of its files.
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        serde_json::to_writer_pretty(&mut out, &report)?;
        std::io::Write::write_all(&mut out, b"\n")?;
        std::io::Write::flush(&mut out)?;
    } else {
        for s in &report.sources {
            let verb = if s.newly_added {
                "added"
            } else {
                "already registered"
            };
            println!(
                "{:<16} {:<18} {:<16} {} file(s), {} bytes{}",
                s.source_id,
                verb,
                s.detected_type.as_deref().unwrap_or("?"),
                s.files.len(),
                s.size,
                s.media
                    .as_ref()
                    .map(|m| format!(", media md5 {}", m.md5_check))
                    .unwrap_or_default()
            );
        }
        for t in &report.triage {
            let t_ = &t.tally;
            println!(
                "{:<16} triage by {:<18} {} phenomena ({} identities), {} tool calls ({} failed), {} rejected, {} unparsed, {} already recorded",
                t.source_id,
                t.agent.as_deref().unwrap_or("-"),
                t_.phenomena,
                t_.identities,
                t_.tool_calls,
                t_.tool_failures,
                t_.rejections,
                t_.unparsed,
                t_.duplicates
            );
        }
        if let Some(r) = &report.resolution {
            println!(
                "resolution       {} coreference hypotheses ({} edges), {} same_as ({} live), {} actors ({} of several entities)",
                r.hypotheses_added,
                r.edges_linked,
                r.same_as,
                r.same_as_live,
                r.actors,
                r.actors_joined
            );
        }
        println!(
            "{} intake event(s) added; store {}",
            report.events_added,
            report.store.display()
        );
        if let Some(w) = &report.report {
            println!(
                "report: {} ({} phenomena, {} hypotheses, {} actors, {} timeline entries, {} not read; {} outputs published)",
                w.files.html.display(),
                w.phenomena,
                w.hypotheses,
                w.actors,
                w.timeline,
                w.not_read,
                w.outputs.invocations
            );
        }
        if let Some(run) = &report.run {
            println!(
                "run {} (segment {}){}",
                run.state.as_str(),
                run.segment,
                run.halt
                    .as_ref()
                    .map(|h| format!(": {}; continue with `masf resume`", h.reason()))
                    .unwrap_or_default()
            );
        }
    }
    for n in &report.not_examined {
        eprintln!("not examined: {n}");
    }
    for p in &report.problems {
        eprintln!("problem: {p}");
    }
    let unfinished = report
        .run
        .as_ref()
        .is_some_and(|r| r.state != masf_api::RunState::Completed);
    Ok(if !report.problems.is_empty() {
        EXIT_FAILURE
    } else if unfinished {
        EXIT_UNFINISHED
    } else {
        EXIT_OK
    })
}

/// Prints the problems of a consistency check to stderr; the exit status it calls for.
fn report_consistency(c: &masf_api::Consistency) -> u8 {
    if c.ok() {
        return EXIT_OK;
    }
    eprintln!(
        "the case store is inconsistent: {} problem(s)",
        c.problems.len()
    );
    for p in &c.problems {
        eprintln!("problem: {p}");
    }
    if c.repairable() {
        eprintln!("`masf repair` rebuilds the graph from the recorded tool outputs");
    } else {
        eprintln!("rows are missing from the store's logs: restore the work folder from a backup");
    }
    EXIT_FAILURE
}

fn cmd_repair(case: &CaseArgs, out: Option<PathBuf>, json: bool, wait: bool) -> anyhow::Result<u8> {
    let mut ctx = open(case)?;
    let lease = match lease(&mut ctx, wait)? {
        Ok(lease) => lease,
        Err(code) => return Ok(code),
    };
    let progress = progress::Bar::new();
    let examiner = ctx.case.meta.examiner.clone();
    let repaired = masf_api::repair(
        &mut ctx,
        &lease,
        &examiner,
        &masf_api::RunOptions { out },
        std::sync::Arc::new(masf_api::SystemClock),
        &progress,
    )?;
    progress.clear();
    if json {
        println!("{}", serde_json::to_string_pretty(&repaired)?);
    } else if repaired.before.ok() {
        println!(
            "the case store is consistent ({} events): nothing to repair",
            repaired.before.events
        );
    } else {
        println!(
            "{} problem(s) found in {} events",
            repaired.before.problems.len(),
            repaired.before.events
        );
        for p in &repaired.before.problems {
            println!("  {p}");
        }
        if let Some(seq) = repaired.rebuilt_at {
            println!(
                "graph rebuilt (epoch {}): the graph events before event {seq} are superseded, kept in the log",
                repaired.epoch
            );
        }
        if let Some(run) = &repaired.run {
            if let Some(w) = &run.report {
                println!(
                    "derived again: {} phenomena, {} hypotheses, {} actors; report {}",
                    w.phenomena,
                    w.hypotheses,
                    w.actors,
                    w.files.html.display()
                );
            }
            if let Some(r) = &run.run {
                println!("run {} (segment {})", r.state.as_str(), r.segment);
            }
        }
        for d in &repaired.decisions {
            let verb = match d.decision.decision {
                masf_api::Decision::Approve => "approval",
                masf_api::Decision::Retract => "retraction",
            };
            let on = d.edge_id.as_deref().unwrap_or("-");
            let outcome = if d.recorded {
                "made again".to_string()
            } else {
                format!("not made again: {}", d.note)
            };
            println!(
                "{verb} of {} by {} -> {on}: {outcome}",
                d.decision.edge_id, d.decision.by
            );
        }
    }
    let code = report_consistency(&repaired.after);
    let unfinished = repaired
        .run
        .as_ref()
        .and_then(|r| r.run.as_ref())
        .is_some_and(|r| r.state != masf_api::RunState::Completed);
    Ok(if code != EXIT_OK {
        code
    } else if unfinished {
        EXIT_UNFINISHED
    } else {
        EXIT_OK
    })
}

fn cmd_status(case: &CaseArgs, json: bool) -> anyhow::Result<u8> {
    let ctx = open(case)?;
    let status = masf_api::status_checked(&ctx)?;
    let code = status
        .consistency
        .as_ref()
        .map_or(EXIT_OK, report_consistency);
    if json {
        println!("{}", serde_json::to_string_pretty(&status)?);
        return Ok(code);
    }
    println!("case     {} — {}", status.case_id, status.title);
    println!("examiner {}", status.examiner);
    println!("zone     {}", status.timezone);
    println!(
        "store    {} ({} events)",
        status.store.display(),
        status.events
    );
    match (&status.run.state, &status.run.last) {
        (Some(state), Some(last)) => println!(
            "run      {} (segment {}, phase {}): {}",
            state.as_str(),
            last.segment,
            last.phase,
            last.reason
        ),
        _ => println!("run      not started"),
    }
    if let Some(lease) = &status.run.lease {
        println!("lease    last taken by {lease}");
    }
    if let Some(c) = &status.consistency {
        let verdict = if c.ok() {
            "consistent".to_string()
        } else {
            format!("INCONSISTENT ({} problem(s))", c.problems.len())
        };
        let superseded = if c.epoch > 0 {
            format!(
                "; graph rebuilt {} time(s), {} problem(s) superseded",
                c.epoch, c.superseded
            )
        } else {
            String::new()
        };
        println!("check    {verdict}{superseded}");
    }
    println!();
    for s in &status.sources {
        let state = if s.registered {
            "registered"
        } else {
            "not yet registered"
        };
        println!("{:<16} {:<20} {}", s.id, state, s.label);
        if let Some(t) = &s.detected_type {
            println!("    type   {t} ({})", s.detection_reasons.join("; "));
        }
        if let Some(m) = &s.media {
            println!(
                "    media  md5 {} ({}), sha1 {} ({}), sha256 {}",
                m.md5, m.md5_check, m.sha1, m.sha1_check, m.sha256
            );
        }
        for f in &s.files {
            println!("    sha256 {}  md5 {}  {}", f.sha256, f.md5, f.path);
        }
    }
    Ok(code)
}

fn cmd_events(case: &CaseArgs, jsonl: bool) -> anyhow::Result<u8> {
    let ctx = open(case)?;
    let mut out = std::io::stdout().lock();
    masf_api::for_each_event(&ctx, &mut |e| {
        use std::io::Write;
        if jsonl {
            let line = serde_json::to_string(e).unwrap_or_default();
            writeln!(out, "{line}")
        } else {
            writeln!(
                out,
                "{:>6}  {}  {:<14} {}:{}  {}",
                e.seq,
                e.ts,
                e.kind,
                e.actor_kind.as_str(),
                e.actor_id,
                e.idempotency_key
            )
        }
        .map_err(|err| err.to_string())
    })?;
    Ok(EXIT_OK)
}

/// How `masf timeline` prints.
enum TimelineFormat {
    Table,
    Json,
    Jsonl,
    Csv,
    L2tcsv,
}

impl TimelineFormat {
    fn pick(json: bool, jsonl: bool, csv: bool) -> Self {
        match (json, jsonl, csv) {
            (true, _, _) => Self::Json,
            (_, true, _) => Self::Jsonl,
            (_, _, true) => Self::Csv,
            _ => Self::Table,
        }
    }
}

fn cmd_timeline(
    case: &CaseArgs,
    format: TimelineFormat,
    query: masf_api::TimelineQuery,
) -> anyhow::Result<u8> {
    use masf_api::timeline_export as export;
    let ctx = open(case)?;
    let timeline = masf_api::query_timeline(&ctx, &query)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match format {
        TimelineFormat::Table => {
            use std::io::Write;
            out.write_all(export::render_table(&timeline).as_bytes())?;
        }
        TimelineFormat::Json => export::write_json(&mut out, &timeline)?,
        TimelineFormat::Jsonl => export::write_jsonl(&mut out, &timeline)?,
        TimelineFormat::Csv => export::write_csv(&mut out, &timeline)?,
        TimelineFormat::L2tcsv => export::write_l2tcsv(&mut out, &timeline)?,
    }
    std::io::Write::flush(&mut out)?;
    if timeline.unconvertible > 0 {
        eprintln!(
            "note: {} time value(s) could not be converted; they are listed last with the reason",
            timeline.unconvertible
        );
    }
    Ok(EXIT_OK)
}

fn cmd_inspect(
    path: &std::path::Path,
    json: bool,
    count: bool,
    password_env: Option<&str>,
) -> anyhow::Result<u8> {
    let ins = masf_api::inspect(path, count, password_env)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&ins)?);
        return Ok(EXIT_OK);
    }
    println!("{}", ins.path);
    println!("type     {}", ins.evidence_type);
    for r in &ins.reasons {
        println!("  because {r}");
    }
    if ins.form != ins.evidence_type {
        println!("form     {}", ins.form);
        for r in &ins.form_reasons {
            println!("  because {r}");
        }
    }
    println!(
        "files    {} ({}, {} bytes)",
        ins.files.len(),
        ins.files_kind,
        ins.size
    );
    if let Some(ewf) = &ins.ewf {
        println!(
            "ewf      version {}, media {} bytes, chunk {} bytes, stored md5 {}, stored sha1 {}",
            ewf.version,
            ewf.media_size,
            ewf.chunk_size,
            ewf.stored_md5.as_deref().unwrap_or("absent"),
            ewf.stored_sha1.as_deref().unwrap_or("absent")
        );
    }
    println!("layers");
    for l in &ins.layers {
        let indent = "  ".repeat(l.depth + 1);
        let mut line = format!("{indent}{} [{}]", l.kind, l.id);
        if let Some(p) = &l.partition {
            line.push_str(&format!(
                " #{} {} ({}) at {} size {}",
                p.index,
                if p.name.is_empty() { "-" } else { &p.name },
                p.type_name,
                p.offset,
                p.size
            ));
        }
        if let Some(f) = &l.format {
            line.push_str(&format!(" {f}"));
            if l.readable == Some(false) {
                line.push_str(" (not readable)");
            }
        }
        if let Some(label) = &l.label {
            line.push_str(&format!(" label={label:?}"));
        }
        if let (Some(files), Some(dirs)) = (l.files, l.dirs) {
            line.push_str(&format!(" {files} files, {dirs} dirs"));
        }
        println!("{line}");
        if let Some(e) = &l.encryption {
            println!("{indent}  encryption: {e}");
        }
        if let Some(p) = &l.problem {
            println!("{indent}  problem: {p}");
        }
        for d in &l.diagnostics {
            println!("{indent}  note: {d}");
        }
    }
    Ok(EXIT_OK)
}

fn cmd_ls(
    spec: &str,
    recursive: bool,
    json: bool,
    body: bool,
    password_env: Option<&str>,
) -> anyhow::Result<u8> {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    masf_api::list(spec, recursive, password_env, &mut |e| {
        if body {
            writeln!(out, "{}", masf_api::timeline_bodyfile::line(e)).map_err(|err| err.to_string())
        } else if json {
            serde_json::to_writer(&mut out, e).map_err(|err| err.to_string())?;
            writeln!(out).map_err(|err| err.to_string())
        } else {
            let kind = match e.kind {
                masf_api::EntryKind::Dir => 'd',
                masf_api::EntryKind::File => 'r',
                masf_api::EntryKind::Symlink => 'l',
                masf_api::EntryKind::Other => '-',
            };
            let mtime = e
                .times
                .iter()
                .find(|t| t.role == masf_evidence::fs::TimeRole::Modified)
                .map(|t| t.raw.display())
                .unwrap_or_else(|| "-".to_string());
            let stored = e.stored_name.as_deref().map_or_else(String::new, |n| {
                format!("  (stored as {})", masf_evidence::fs::visible(n))
            });
            writeln!(
                out,
                "{kind}{} {:>10} {:>12}  {:<34} {}{stored}",
                if e.deleted { '*' } else { ' ' },
                e.id.map_or_else(|| "-".to_string(), |i| i.to_string()),
                e.size,
                mtime,
                masf_evidence::fs::visible(&e.path)
            )
            .map_err(|err| err.to_string())
        }
    })?;
    out.flush()?;
    Ok(EXIT_OK)
}

fn cmd_cat(spec: &str, password_env: Option<&str>) -> anyhow::Result<u8> {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    masf_api::cat(spec, password_env, &mut out)?;
    out.flush()?;
    Ok(EXIT_OK)
}

fn cmd_verify_media(path: &std::path::Path, sha256: bool, json: bool) -> anyhow::Result<u8> {
    let progress = progress::Bar::new();
    let v = masf_api::verify_media(path, sha256, &progress)?;
    progress.clear();
    let ok = v.is_verified();
    if json {
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!(
            "media    {} bytes ({} hashed)",
            v.media_size, v.bytes_hashed
        );
        println!(
            "md5      {}  stored {}  {:?}",
            v.md5,
            v.stored_md5.as_deref().unwrap_or("-"),
            v.md5_check
        );
        if v.sha1.is_empty() {
            println!("sha1     -  not stored, not computed");
        } else {
            println!(
                "sha1     {}  stored {}  {:?}",
                v.sha1,
                v.stored_sha1.as_deref().unwrap_or("-"),
                v.sha1_check
            );
        }
        if !v.sha256.is_empty() {
            println!("sha256   {}", v.sha256);
        }
        for b in &v.bad_chunks {
            println!(
                "bad chunk {} at media offset {}: {}",
                b.chunk, b.media_offset, b.detail
            );
        }
        for w in &v.warnings {
            println!("warning  {w}");
        }
        println!("{}", if ok { "verified" } else { "NOT verified" });
    }
    Ok(if ok { EXIT_OK } else { EXIT_FAILURE })
}

fn describe(r: &masf_api::Rederivation) -> String {
    use masf_api::RederiveVerdict as V;
    let what = match &r.verdict {
        V::Match => "match".to_string(),
        V::StoredOutputAltered { detail } => format!("STORED OUTPUT ALTERED: {detail}"),
        V::RerunDiffers { rerun_sha256 } => {
            format!("MISMATCH: re-run gives sha256 {rerun_sha256}")
        }
        V::MetadataChanged { detail, .. } => {
            format!("match of the content; {detail} (the re-run differs only there)")
        }
        V::RerunFailed { reason } => format!("RE-RUN FAILED: {reason}"),
        V::NotReproducible { status } => format!("nothing to reproduce (status {status})"),
    };
    format!(
        "{} {} {} on {} (recorded sha256 {}): {what}",
        r.invocation_id, r.tool, r.args, r.source_id, r.recorded_sha256
    )
}

fn cmd_rerun(case: &CaseArgs, invocation: &str, json: bool) -> anyhow::Result<u8> {
    let ctx = open(case)?;
    let r = masf_api::rerun(&ctx, invocation)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        println!("{}", describe(&r));
    }
    Ok(
        if matches!(
            r.verdict,
            masf_api::RederiveVerdict::Match | masf_api::RederiveVerdict::MetadataChanged { .. }
        ) {
            EXIT_OK
        } else {
            EXIT_FAILURE
        },
    )
}

fn cmd_report(case: &CaseArgs, out: Option<PathBuf>, tagged_only: bool) -> anyhow::Result<u8> {
    let ctx = open(case)?;
    let dir = out.unwrap_or_else(|| ctx.case.dir.join("masf-report"));
    let progress = progress::Bar::new();
    let w =
        masf_api::write_report_with(&ctx, &dir, &masf_api::SystemClock, &progress, tagged_only)?;
    progress.clear();
    println!(
        "{}\n{}\n{}\n{} outputs in {}",
        w.files.json.display(),
        w.files.html.display(),
        w.files.markdown.display(),
        w.outputs.invocations,
        w.outputs.dir.display()
    );
    Ok(EXIT_OK)
}

fn cmd_outputs(case: &CaseArgs, out: Option<PathBuf>) -> anyhow::Result<u8> {
    let ctx = open(case)?;
    let dir = out.unwrap_or_else(|| ctx.case.dir.join("masf-report").join("outputs"));
    let p = masf_api::publish_outputs(&ctx, &dir)?;
    println!(
        "{} output(s), {} bytes, written to {} (check with: cd {} && sha256sum -c SHA256SUMS)",
        p.invocations,
        p.bytes,
        p.dir.display(),
        p.dir.display()
    );
    Ok(EXIT_OK)
}

fn cmd_verify(case: &CaseArgs, against: Vec<PathBuf>, json: bool) -> anyhow::Result<u8> {
    let ctx = open(case)?;
    let report = masf_api::verify(&ctx, &against)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "{} invocation(s): {} re-derived, {} without output to reproduce, {} failed",
            report.invocations,
            report.matched,
            report.not_reproducible,
            report.failures.len()
        );
        for f in &report.failures {
            println!("{}", describe(f));
        }
        if !report.metadata_changed.is_empty() {
            println!(
                "{} invocation(s) re-derive their content, their evidence's metadata changed since:",
                report.metadata_changed.len()
            );
            for m in &report.metadata_changed {
                println!("{}", describe(m));
            }
        }
        println!(
            "{} verified fact(s): {} still found in their invocation's output, {} not",
            report.facts,
            report.facts_matched,
            report.fact_failures.len()
        );
        for f in &report.fact_failures {
            println!(
                "fact {} #{} ({:?} in {}): {}",
                f.phenomenon_id, f.fact_index, f.value, f.invocation_id, f.reason
            );
        }
        for head in &report.chain {
            println!(
                "log chain: {} {} row(s), head seq {} {}",
                head.table, head.count, head.seq, head.hash
            );
        }
        for printed in &report.printed {
            println!("{printed}");
        }
        println!(
            "{} event(s): store {}",
            report.consistency.events,
            if report.consistency.ok() {
                "consistent".to_string()
            } else {
                format!(
                    "INCONSISTENT ({} problem(s))",
                    report.consistency.problems.len()
                )
            }
        );
    }
    report_consistency(&report.consistency);
    Ok(if report.ok() { EXIT_OK } else { EXIT_FAILURE })
}
