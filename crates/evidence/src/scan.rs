//! The scanner: stacks layers on an evidence path by content, and sniffs the evidence type.
//!
//! Like dfvfs' source scanner, the scanner starts from the evidence path and asks each layer
//! what lies inside it, by signature: a file may be an EWF image (by its segment signature), a
//! split raw image or a plain file; a byte stream may hold a volume system (GPT, MBR, APM), whose
//! partitions are probed in turn, or an Android sparse image or a virtual disk (QCOW2, VHD,
//! VHDX, VMDK) whose expanded bytes are scanned in turn, or a file system (ext4, FAT, NTFS,
//! F2FS), or an archive (ZIP, TAR,
//! gzip); a folder is an iTunes backup when it holds `Manifest.db`, else a plain folder. The
//! file extension is never consulted for the type. The result is a tree of [`Node`]s, each
//! with its [`Layer`] (kind, parameters, parent: the dfvfs path-spec idea) whose comparable
//! string, hashed, is a stable layer id.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::bytes::{Bytes, Concat, FileBytes};
use crate::files::{EvidenceFiles, FilesKind};
use crate::fs::FileSystem;
use crate::probe::{Format, Probe};
use crate::{Error, Result};

/// One layer of a source: what it is, its parameters, and the layer it reads from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Layer {
    pub kind: String,
    pub params: BTreeMap<String, String>,
    #[serde(skip)]
    pub parent: Option<Arc<Layer>>,
}

impl Layer {
    fn new(kind: &str, params: &[(&str, String)], parent: Option<&Arc<Layer>>) -> Arc<Layer> {
        Arc::new(Layer {
            kind: kind.to_string(),
            params: params
                .iter()
                .map(|(k, v)| ((*k).to_string(), v.clone()))
                .collect(),
            parent: parent.cloned(),
        })
    }

    /// The canonical description of the whole chain, outermost first, one layer a line.
    pub fn comparable(&self) -> String {
        let mut out = String::new();
        if let Some(p) = &self.parent {
            out.push_str(&p.comparable());
        }
        out.push_str("type: ");
        out.push_str(&self.kind);
        for (k, v) in &self.params {
            out.push_str(&format!(", {k}: {v}"));
        }
        out.push('\n');
        out
    }

    /// A stable id of the chain: the first 16 hex digits of the SHA-256 of [`Layer::comparable`].
    pub fn id(&self) -> String {
        hex::encode(&Sha256::digest(self.comparable().as_bytes())[..8])
    }
}

/// What the scanner found at one layer.
pub struct Node {
    pub layer: Arc<Layer>,
    /// The byte stream of this layer, when it is one.
    pub bytes: Option<Bytes>,
    /// What the content was recognised as, with the reason.
    pub probe: Option<Probe>,
    /// The partition this node is, when it is one.
    pub partition: Option<PartitionInfo>,
    /// The file system or tree of this layer, when one could be opened.
    pub fs: Option<Arc<dyn FileSystem>>,
    /// Why this layer could not be opened further (encrypted, unsupported, corrupt).
    pub problem: Option<String>,
    pub children: Vec<Node>,
}

/// The partition a node stands for.
#[derive(Debug, Clone, Serialize)]
pub struct PartitionInfo {
    pub index: usize,
    pub name: String,
    pub type_name: String,
    pub offset: u64,
    pub size: u64,
}

/// What a scanned source is as a *format*: the container or tree the scanner opened. Which
/// device it comes from (an Android disk, an iOS extraction, a media collection) is not the
/// evidence layer's call: each plugin recognises its own devices from the layers, partitions
/// and trees the scan exposes (`masf_agents::Plugins::typing`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    /// A disk or volume image (raw, EWF, a virtual disk, an Android sparse or super image)
    /// holding partitions or file systems.
    DiskImage,
    /// An iTunes/Finder backup folder (Manifest.db), read as one tree.
    ItunesBackup,
    /// A zip or tar archive.
    Archive,
    Folder,
    /// A single file that is none of the above (a database, a plist, an image).
    File,
}

impl Form {
    pub fn as_str(self) -> &'static str {
        match self {
            Form::DiskImage => "disk_image",
            Form::ItunesBackup => "itunes_backup",
            Form::Archive => "archive",
            Form::Folder => "folder",
            Form::File => "file",
        }
    }
}

/// The image formats among a folder's first files ([`FOLDER_SAMPLE`] at most), by their
/// leading bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FolderFormats {
    /// Files looked at.
    pub sampled: usize,
    /// Of them, images.
    pub images: usize,
    /// The image formats seen (`JPEG`, `PNG`, …), sorted.
    pub image_kinds: Vec<&'static str>,
}

/// The result of scanning one evidence path.
pub struct Scan {
    pub path: PathBuf,
    pub files: EvidenceFiles,
    pub root: Node,
    pub form: Form,
    /// Why the scanner chose that form: the content it saw.
    pub reasons: Vec<String>,
    /// For a folder, the image formats among its files (`None` for any other form).
    pub folder_formats: Option<FolderFormats>,
}

/// What the examiner gives a scan beyond the path.
#[derive(Debug, Default, Clone)]
pub struct ScanOptions {
    /// The password of an encrypted iTunes/Finder backup (never stored or printed).
    pub backup_password: Option<crate::itunes::keybag::Password>,
}

/// Scans an evidence path: resolves its files, stacks every layer found by content, and sniffs
/// the evidence type.
pub fn scan(path: &Path) -> Result<Scan> {
    scan_with(path, &ScanOptions::default())
}

/// [`scan`] with the examiner's options (an encrypted backup's password).
pub fn scan_with(path: &Path, options: &ScanOptions) -> Result<Scan> {
    let files = EvidenceFiles::discover(path)?;
    let file_layer = Layer::new("file", &[("location", path.display().to_string())], None);
    let root = if files.kind == FilesKind::Folder {
        scan_folder(path, file_layer, options)?
    } else {
        let (layer, bytes) = open_image(&files, &file_layer)?;
        // A virtual disk given as a file finds the files it names in that file's folder.
        let beside = matches!(files.kind, FilesKind::Single | FilesKind::DiskChain)
            .then(|| crate::beside::Beside::of(&files.root));
        scan_bytes_beside(layer, bytes, 0, beside.as_ref())
    };
    let (form, reasons) = sniff_form(&root);
    let folder_formats = (form == Form::Folder).then(|| folder_formats(&files));
    Ok(Scan {
        path: path.to_path_buf(),
        files,
        root,
        form,
        reasons,
        folder_formats,
    })
}

/// The image layer of a file source: EWF, split raw, or the file itself.
fn open_image(files: &EvidenceFiles, file_layer: &Arc<Layer>) -> Result<(Arc<Layer>, Bytes)> {
    match files.kind {
        FilesKind::EwfSegments => {
            let image = crate::ewf::EwfImage::open(&files.root)?;
            let layer = Layer::new(
                "ewf",
                &[("segments", files.files.len().to_string())],
                Some(file_layer),
            );
            Ok((layer, Arc::new(image)))
        }
        FilesKind::SplitRaw => {
            let parts = files
                .files
                .iter()
                .map(|f| FileBytes::open(f).map(|b| Arc::new(b) as Bytes))
                .collect::<Result<Vec<_>>>()?;
            let layer = Layer::new(
                "split_raw",
                &[("parts", files.files.len().to_string())],
                Some(file_layer),
            );
            Ok((layer, Arc::new(Concat::new(parts))))
        }
        _ => {
            let path = files.files.first().ok_or_else(|| Error::NotFound {
                path: files.root.clone(),
            })?;
            Ok((file_layer.clone(), Arc::new(FileBytes::open(path)?)))
        }
    }
}

/// The most a gzip layer may inflate to in memory (a tar.gz of an extraction). Larger
/// compressed evidence is reported as too large rather than exhausting memory.
pub const GUNZIP_LIMIT: u64 = 8 << 30;

/// How deep layers may nest (a zip in a partition in an image …) before the scanner stops:
/// crafted evidence must not make it recurse without end.
const MAX_DEPTH: usize = 6;

fn scan_bytes(layer: Arc<Layer>, bytes: Bytes, depth: usize) -> Node {
    scan_bytes_beside(layer, bytes, depth, None)
}

/// [`scan_bytes`] of an evidence file itself: a virtual disk finds the files it names (extents,
/// backing files, parents) in `beside`, its folder. Layers inside it have no folder.
fn scan_bytes_beside(
    layer: Arc<Layer>,
    bytes: Bytes,
    depth: usize,
    beside: Option<&crate::beside::Beside>,
) -> Node {
    let mut node = Node {
        layer: layer.clone(),
        bytes: Some(bytes.clone()),
        probe: None,
        partition: None,
        fs: None,
        problem: None,
        children: Vec::new(),
    };
    if depth > MAX_DEPTH {
        node.problem = Some(format!(
            "layers nested deeper than {MAX_DEPTH}; not scanned further"
        ));
        return node;
    }
    if let Some(opened) = virtual_disk(&bytes, beside) {
        let probe = crate::probe::probe(bytes.as_ref());
        match opened {
            Ok((kind, params, inner)) => {
                let params: Vec<(&str, String)> =
                    params.iter().map(|(k, v)| (*k, v.clone())).collect();
                let vlayer = Layer::new(kind, &params, Some(&layer));
                node.children.push(scan_bytes(vlayer, inner, depth + 1));
            }
            Err(e) => node.problem = Some(e.to_string()),
        }
        node.probe = Some(probe);
        return node;
    }
    if crate::volume::sniff(bytes.as_ref()).is_some() {
        match crate::volume::open(&bytes) {
            Ok(vs) => {
                let kind = vs.kind.name().to_string();
                for p in &vs.partitions {
                    // The extended container's EBR looks like an MBR, and its logicals are
                    // listed in the table already; an APM's own entry is the map, and its free
                    // space is no partition (GPT and MBR list none).
                    if !p.holds_data() {
                        continue;
                    }
                    let player = Layer::new(
                        "partition",
                        &[
                            ("scheme", kind.clone()),
                            ("index", p.index.to_string()),
                            ("offset", p.offset.to_string()),
                        ],
                        Some(&layer),
                    );
                    let mut child = scan_bytes(player, p.bytes.clone(), depth + 1);
                    child.partition = Some(PartitionInfo {
                        index: p.index as usize,
                        name: p.name.clone(),
                        type_name: p.type_name.clone(),
                        offset: p.offset,
                        size: p.size,
                    });
                    node.children.push(child);
                }
                let format = match vs.kind {
                    crate::volume::VolumeKind::Gpt => Format::Gpt,
                    crate::volume::VolumeKind::Mbr => Format::Mbr,
                    crate::volume::VolumeKind::Apm => Format::Apm,
                };
                let mut probe = Probe::new(
                    format,
                    true,
                    format!(
                        "{kind} partition table, {} partition(s)",
                        vs.partitions.len()
                    ),
                );
                probe.features = vs.diagnostics.clone();
                node.probe = Some(probe);
            }
            Err(e) => node.problem = Some(e.to_string()),
        }
        return node;
    }
    let probe = crate::probe::probe(bytes.as_ref());
    let opened: Option<(&str, Result<Arc<dyn FileSystem>>)> = match probe.format {
        Format::Ext2 | Format::Ext3 | Format::Ext4 => {
            Some(("ext", crate::ext4::open(bytes.clone())))
        }
        Format::Fat12 | Format::Fat16 | Format::Fat32 => {
            Some(("fat", crate::fat::open(bytes.clone())))
        }
        Format::Ntfs => Some(("ntfs", crate::ntfs::open(bytes.clone()))),
        Format::F2fs if probe.readable => Some(("f2fs", crate::f2fs::open(bytes.clone()))),
        Format::HfsPlus | Format::Hfsx if probe.readable => {
            Some(("hfsplus", crate::hfsplus::open(bytes.clone())))
        }
        Format::Apfs if probe.readable => {
            apfs_volumes(&mut node, &layer, &bytes);
            None
        }
        Format::AndroidSuper => {
            super_partitions(&mut node, &layer, &bytes, depth);
            None
        }
        Format::Zip => Some(("zip", crate::archive::open_zip(bytes.clone()))),
        Format::Tar => Some(("tar", crate::archive::open_tar(bytes.clone()))),
        Format::Gzip => {
            match crate::archive::gunzip(bytes.clone(), GUNZIP_LIMIT) {
                Ok(inner) => {
                    let glayer = Layer::new("gzip", &[], Some(&layer));
                    node.children.push(scan_bytes(glayer, inner, depth + 1));
                }
                Err(e) => node.problem = Some(e.to_string()),
            }
            None
        }
        _ => None,
    };
    if let Some((kind, result)) = opened {
        match result {
            Ok(fs) => {
                let _ = kind;
                let fs_layer = Layer::new(fs.format(), &[], Some(&layer));
                node.children.push(Node {
                    layer: fs_layer,
                    bytes: None,
                    probe: None,
                    partition: None,
                    fs: Some(fs),
                    problem: None,
                    children: Vec::new(),
                });
            }
            Err(e) => node.problem = Some(e.to_string()),
        }
    } else if !probe.readable && node.problem.is_none() {
        node.problem = Some(probe.reason.clone());
    }
    node.probe = Some(probe);
    node
}

/// An Android `super` partition: each logical partition (`system_a`, `vendor_a`, …) becomes a
/// child layer named as a partition is, its bytes scanned like any partition's; one without
/// bytes (no extents, another block device) is a child with why. Damaged metadata is the
/// node's problem.
fn super_partitions(node: &mut Node, layer: &Arc<Layer>, bytes: &Bytes, depth: usize) {
    let image = match crate::lp::open(bytes) {
        Ok(i) => i,
        Err(e) => {
            node.problem = Some(e.to_string());
            return;
        }
    };
    for (i, p) in image.partitions.iter().enumerate() {
        let player = Layer::new(
            "logical_partition",
            &[
                ("scheme", "android_super".to_string()),
                ("name", p.name.clone()),
                ("group", p.group.clone()),
            ],
            Some(layer),
        );
        let info = PartitionInfo {
            index: i + 1,
            name: p.name.clone(),
            type_name: format!("Android logical partition (group {})", p.group),
            offset: p.offset.unwrap_or(0),
            size: p.size,
        };
        let mut child = match &p.bytes {
            Some(b) => scan_bytes(player, b.clone(), depth + 1),
            None => Node {
                layer: player,
                bytes: None,
                probe: None,
                partition: None,
                fs: None,
                problem: p.why_none.clone(),
                children: Vec::new(),
            },
        };
        child.partition = Some(info);
        node.children.push(child);
    }
    if !image.notes.is_empty() && node.problem.is_none() {
        node.problem = Some(image.notes.join("; "));
    }
}

/// An APFS container: each volume becomes a child layer, as the partitions of a table do, with
/// its name and role as the partition's name and type; a volume that cannot be opened
/// (encrypted, corrupt) is a child with its problem.
fn apfs_volumes(node: &mut Node, layer: &Arc<Layer>, bytes: &Bytes) {
    let container = match crate::apfs::open_container(bytes.clone()) {
        Ok(c) => c,
        Err(e) => {
            node.problem = Some(e.to_string());
            return;
        }
    };
    for (i, vol) in container.volumes().iter().enumerate() {
        let (name, role, size, fs, problem) = match vol {
            Ok(v) => (
                v.info().name.clone(),
                v.info().role.clone(),
                v.info().allocated_bytes,
                Some(v.clone() as Arc<dyn FileSystem>),
                None,
            ),
            Err(e) => (String::new(), String::new(), 0, None, Some(e.to_string())),
        };
        let vlayer = Layer::new(
            "apfs_volume",
            &[("index", i.to_string()), ("name", name.clone())],
            Some(layer),
        );
        let mut child = Node {
            layer: vlayer.clone(),
            bytes: None,
            probe: None,
            partition: Some(PartitionInfo {
                index: i + 1,
                name,
                type_name: format!("APFS volume ({role})"),
                // Volumes share the container's blocks: no offset; the size is what is allocated.
                offset: 0,
                size,
            }),
            fs: None,
            problem,
            children: Vec::new(),
        };
        if let Some(fs) = fs {
            child.children.push(Node {
                layer: Layer::new(fs.format(), &[], Some(&vlayer)),
                bytes: None,
                probe: None,
                partition: None,
                fs: Some(fs),
                problem: None,
                children: Vec::new(),
            });
        }
        node.children.push(child);
    }
}

/// An image layer that holds another byte stream (an Android sparse image, a QCOW2, VHD, VHDX
/// or VMDK virtual disk, a UDIF or Mac OS sparse image) recognised by its signature: the layer
/// kind, its parameters and the bytes it expands to, or why it cannot be opened.
type VirtualDisk = Result<(&'static str, Vec<(&'static str, String)>, Bytes)>;

fn virtual_disk(bytes: &Bytes, beside: Option<&crate::beside::Beside>) -> Option<VirtualDisk> {
    let mut head = [0u8; 32];
    let n = bytes.read_at(0, &mut head).ok()?;
    let head = head.get(..n)?;
    if crate::simg::sniff(head).is_some() {
        return Some(crate::simg::SparseImage::open(bytes.clone()).map(|s| {
            let params = vec![
                ("block_size", s.header().block_size.to_string()),
                ("blocks", s.header().total_blocks.to_string()),
            ];
            ("android_sparse", params, Arc::new(s) as Bytes)
        }));
    }
    if crate::vmdk::sniff(head).is_some() {
        return Some(crate::vmdk::VmdkDisk::open(bytes.clone(), beside).map(|v| {
            let mut params = vec![("create_type", v.create_type().to_string())];
            if let Some(version) = v.version() {
                params.push(("version", version.to_string()));
            }
            if !v.extent_files().is_empty() {
                params.push(("extents", v.extent_files().join(",")));
            }
            if let Some(parent) = v.parent_name() {
                params.push(("parent", parent.to_string()));
            }
            ("vmdk", params, Arc::new(v) as Bytes)
        }));
    }
    if crate::qcow2::sniff(head).is_some() {
        return Some(
            crate::qcow2::Qcow2Image::open_beside(bytes.clone(), beside).map(|q| {
                let mut params = vec![("version", q.header().version.to_string())];
                if let Some(backing) = q.backing_name() {
                    params.push(("backing_file", backing.to_string()));
                }
                ("qcow2", params, Arc::new(q) as Bytes)
            }),
        );
    }
    if crate::vhdx::sniff(head) {
        return Some(
            crate::vhdx::VhdxImage::open_beside(bytes.clone(), beside).map(|v| {
                let info = v.info();
                let kind = match (info.fixed, &info.parent) {
                    (true, _) => "fixed",
                    (false, Some(_)) => "differencing",
                    (false, None) => "dynamic",
                };
                let mut params = vec![
                    ("disk_type", kind.to_string()),
                    ("block_size", info.block_size.to_string()),
                ];
                if let Some(parent) = &info.parent {
                    params.push(("parent", parent.clone()));
                }
                ("vhdx", params, Arc::new(v) as Bytes)
            }),
        );
    }
    if crate::sparseimage::sniff(head) {
        return Some(
            crate::sparseimage::SparseImage::open(bytes.clone()).map(|s| {
                let params = vec![
                    ("band_size", s.band_size().to_string()),
                    ("bands_stored", s.bands_stored().to_string()),
                ];
                ("sparseimage", params, Arc::new(s) as Bytes)
            }),
        );
    }
    if crate::udif::sniff(bytes.as_ref()) {
        return Some(crate::udif::UdifImage::open(bytes.clone()).map(|u| {
            let kinds: Vec<&str> = u.kinds().iter().map(|k| k.name()).collect();
            let params = vec![
                ("chunks", kinds.join(",")),
                ("tables", u.tables().len().to_string()),
            ];
            ("udif", params, Arc::new(u) as Bytes)
        }));
    }
    crate::vhd::sniff(bytes.as_ref())?;
    Some(
        crate::vhd::VhdImage::open_beside(bytes.clone(), beside).map(|v| {
            let mut params = vec![("disk_type", v.footer().disk_type.name().to_string())];
            if let Some(parent) = v.parent_name() {
                params.push(("parent", parent.to_string()));
            }
            ("vhd", params, Arc::new(v) as Bytes)
        }),
    )
}

fn scan_folder(path: &Path, file_layer: Arc<Layer>, options: &ScanOptions) -> Result<Node> {
    let mut params = Vec::new();
    // A Mac OS sparse bundle is a folder that holds a disk: scanned as that disk. One that
    // will not open stays a folder (its files can still be listed), the problem said.
    let mut bundle_problem = None;
    if crate::sparsebundle::is_bundle(path) {
        match crate::sparsebundle::SparseBundle::open(path) {
            Ok(b) => {
                let layer = Layer::new(
                    "sparsebundle",
                    &[
                        ("band_size", b.band_size().to_string()),
                        ("bands_present", b.bands_present().to_string()),
                    ],
                    Some(&file_layer),
                );
                return Ok(scan_bytes(layer, Arc::new(b), 0));
            }
            Err(e) => bundle_problem = Some(format!("sparse bundle not readable: {e}")),
        }
    }
    let (kind, fs) = if path.join("Manifest.db").is_file() {
        let backup = crate::itunes::ItunesBackup::open_with(path, options.backup_password.as_ref());
        if let Ok(b) = &backup
            && b.encrypted()
        {
            params.push(("encryption", crate::itunes::DECRYPTED.to_string()));
        }
        let fs = backup.map(|b| Arc::new(b) as Arc<dyn FileSystem>);
        ("itunes_backup", fs)
    } else {
        ("folder", crate::folder::open_folder(path))
    };
    let layer = Layer::new(kind, &params, Some(&file_layer));
    let (fs, problem) = match fs {
        Ok(fs) => (Some(fs), bundle_problem),
        Err(e) => (None, Some(e.to_string())),
    };
    Ok(Node {
        layer,
        bytes: None,
        probe: None,
        partition: None,
        fs,
        problem,
        children: Vec::new(),
    })
}

/// A file system found by the scan, with the partition it lies in.
pub struct FsRef<'a> {
    pub partition: Option<&'a PartitionInfo>,
    pub layer: &'a Arc<Layer>,
    pub fs: &'a Arc<dyn FileSystem>,
}

impl Scan {
    /// Every file system or tree found, in scan order.
    pub fn file_systems(&self) -> Vec<FsRef<'_>> {
        fn walk<'a>(node: &'a Node, part: Option<&'a PartitionInfo>, out: &mut Vec<FsRef<'a>>) {
            let part = node.partition.as_ref().or(part);
            if let Some(fs) = &node.fs {
                out.push(FsRef {
                    partition: part,
                    layer: &node.layer,
                    fs,
                });
            }
            for c in &node.children {
                walk(c, part, out);
            }
        }
        let mut out = Vec::new();
        walk(&self.root, None, &mut out);
        out
    }

    /// The file system a SPEC's `#PARTITION` names (a 1-based index or a partition name), or the
    /// only file system when none is named.
    pub fn file_system(&self, partition: Option<&str>) -> Result<Arc<dyn FileSystem>> {
        let all = self.file_systems();
        let describe = || {
            all.iter()
                .map(|f| match f.partition {
                    Some(p) if p.name.is_empty() => format!("#{} ({})", p.index, f.fs.format()),
                    Some(p) => format!("#{} or #{} ({})", p.index, p.name, f.fs.format()),
                    None => format!("(no partition) {}", f.fs.format()),
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let layer = self.path.display().to_string();
        match partition {
            None => match all.as_slice() {
                [one] => Ok(one.fs.clone()),
                [] => Err(Error::Unsupported {
                    layer,
                    detail: self.unreadable_summary(),
                }),
                _ => Err(Error::WrongKind {
                    layer,
                    path: "(no #PARTITION given)".to_string(),
                    detail: format!(
                        "holds several file systems: {}; name one as EVIDENCE#PARTITION:/path",
                        describe()
                    ),
                }),
            },
            Some(want) => {
                let hit = all.iter().find(|f| {
                    f.partition.is_some_and(|p| {
                        p.index.to_string() == want || (!p.name.is_empty() && p.name == want)
                    })
                });
                match hit {
                    Some(f) => Ok(f.fs.clone()),
                    None => Err(Error::NoEntry {
                        layer,
                        path: format!(
                            "#{want} (readable file systems: {})",
                            if all.is_empty() {
                                "none".to_string()
                            } else {
                                describe()
                            }
                        ),
                    }),
                }
            }
        }
    }

    /// Why nothing readable was found, from the problems the scan met.
    pub fn unreadable_summary(&self) -> String {
        let mut problems = Vec::new();
        fn walk(node: &Node, out: &mut Vec<String>) {
            if let Some(p) = &node.problem {
                out.push(p.clone());
            }
            for c in &node.children {
                walk(c, out);
            }
        }
        walk(&self.root, &mut problems);
        if problems.is_empty() {
            "no file system or archive found".to_string()
        } else {
            format!("no readable file system: {}", problems.join("; "))
        }
    }
}

/// A `masf ls`/`masf cat` address: `EVIDENCE[#PARTITION]:/path/inside`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    pub evidence: PathBuf,
    pub partition: Option<String>,
    pub path: String,
}

impl Spec {
    /// Parses a SPEC. The evidence path is the longest prefix that exists on disk, so paths with
    /// `:` or `#` in their names still work; with no `:/` part the path inside is the root.
    pub fn parse(text: &str) -> Spec {
        let split = |evidence: &str| -> (PathBuf, Option<String>) {
            if Path::new(evidence).exists() {
                return (PathBuf::from(evidence), None);
            }
            match evidence.rsplit_once('#') {
                Some((e, p)) if Path::new(e).exists() => (PathBuf::from(e), Some(p.to_string())),
                _ => (PathBuf::from(evidence), None),
            }
        };
        let mut candidates: Vec<usize> = text.match_indices(":/").map(|(i, _)| i).collect();
        candidates.reverse();
        for i in candidates {
            let (evidence, part) = split(&text[..i]);
            if evidence.exists() {
                return Spec {
                    evidence,
                    partition: part,
                    path: crate::fs::normalize_path(&text[i + 1..]),
                };
            }
        }
        let bare = text.strip_suffix(':').unwrap_or(text);
        let (evidence, partition) = split(bare);
        Spec {
            evidence,
            partition,
            path: "/".to_string(),
        }
    }
}

/// Image signatures a media collection is made of.
fn image_kind(head: &[u8]) -> Option<&'static str> {
    if head.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("PNG")
    } else if head.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("JPEG")
    } else if head.len() >= 12
        && &head[4..8] == b"ftyp"
        && matches!(&head[8..12], b"heic" | b"heix" | b"mif1")
    {
        Some("HEIC")
    } else if head.starts_with(b"GIF8") {
        Some("GIF")
    } else if head.len() >= 12 && head.starts_with(b"RIFF") && &head[8..12] == b"WEBP" {
        Some("WebP")
    } else {
        None
    }
}

/// Files looked at when counting a folder's image formats.
pub const FOLDER_SAMPLE: usize = 2000;

/// The image formats among a folder's first [`FOLDER_SAMPLE`] files.
fn folder_formats(files: &EvidenceFiles) -> FolderFormats {
    let mut images = 0usize;
    let mut kinds = std::collections::BTreeSet::new();
    let sample = &files.files[..files.files.len().min(FOLDER_SAMPLE)];
    for f in sample {
        let mut head = [0u8; 16];
        let n = crate::open::open_read_only(f)
            .ok()
            .and_then(|mut fh| std::io::Read::read(&mut fh, &mut head).ok())
            .unwrap_or(0);
        if let Some(k) = image_kind(&head[..n]) {
            images += 1;
            kinds.insert(k);
        }
    }
    FolderFormats {
        sampled: sample.len(),
        images,
        image_kinds: kinds.into_iter().collect(),
    }
}

/// The form of a scanned source, with the content that decided it.
fn sniff_form(root: &Node) -> (Form, Vec<String>) {
    let mut reasons = Vec::new();
    if root.layer.kind == "itunes_backup" {
        reasons.push("folder holds Manifest.db (iTunes/Finder backup)".to_string());
        return (Form::ItunesBackup, reasons);
    }
    let mut fs_seen = Vec::new();
    fn walk(n: &Node, fs_seen: &mut Vec<String>) {
        if let Some(fs) = &n.fs {
            fs_seen.push(fs.format().to_string());
        }
        for c in &n.children {
            walk(c, fs_seen);
        }
    }
    walk(root, &mut fs_seen);
    let holding = |containers: &[&str]| {
        let mut chain: Vec<String> = containers.iter().map(|c| (*c).to_string()).collect();
        // a root that is itself a named container (a sparse bundle) is named by the chain
        if container_name(&root.layer.kind).is_none()
            && (root.layer.kind != "file" || chain.is_empty())
        {
            chain.insert(0, format!("{} image", root.layer.kind));
        }
        let inner = if fs_seen.is_empty() {
            root.probe
                .as_ref()
                .map(|p| p.format.name())
                .unwrap_or("unknown")
                .to_string()
        } else {
            fs_seen.join(", ")
        };
        chain.push(inner);
        chain.join(" holding ")
    };
    let containers = containers(root);
    if root.layer.kind == "folder" {
        reasons.push("a plain folder".to_string());
        return (Form::Folder, reasons);
    }
    let archive = fs_seen.iter().any(|f| f == "zip" || f == "tar");
    let volume = root
        .probe
        .as_ref()
        .map(|p| p.format.name())
        .unwrap_or("unknown");
    let android_container = containers.iter().any(|c| c.starts_with("Android"));
    if archive && !android_container && root.children.iter().all(|c| c.partition.is_none()) {
        reasons.push(format!("{} archive", fs_seen.join("+")));
        return (Form::Archive, reasons);
    }
    if !fs_seen.is_empty() || !root.children.is_empty() {
        reasons.push(holding(&containers));
        return (Form::DiskImage, reasons);
    }
    // A container recognised by its signature that could not be opened is named, with why; the
    // source stays a single file (so the tools that read any file still apply to it).
    if let Some(p) = &root.probe
        && let Some(words) = unopened_container(p.format)
    {
        let why = root.problem.as_deref().unwrap_or(&p.reason);
        reasons.push(format!("single file: {words}, not readable: {why}"));
        return (Form::File, reasons);
    }
    reasons.push(format!("single file: {volume}"));
    (Form::File, reasons)
}

/// How a container layer is named in a source's form reasons (none: not a container).
fn container_name(kind: &str) -> Option<&'static str> {
    match kind {
        "android_sparse" => Some("Android sparse image"),
        "android_super" => Some("Android super image"),
        "qcow2" => Some("QCOW2 image"),
        "vhd" => Some("VHD image"),
        "vhdx" => Some("VHDX image"),
        "vmdk" => Some("VMDK image"),
        "udif" => Some("UDIF disk image (.dmg)"),
        "sparsebundle" => Some("Mac OS sparse bundle (.sparsebundle)"),
        "sparseimage" => Some("Mac OS sparse image (.sparseimage)"),
        _ => None,
    }
}

/// The words of a container format, for a source that is one but whose content could not be
/// opened (a wrong CRC, a missing parent, a format not read yet).
fn unopened_container(format: Format) -> Option<&'static str> {
    Some(match format {
        Format::AndroidSparse => "Android sparse image",
        Format::AndroidSuper => "Android super image (dynamic partitions)",
        Format::Qcow2 => "QCOW2 image",
        Format::Vhd => "VHD image",
        Format::Vhdx => "VHDX image",
        Format::Vmdk => "VMDK image",
        Format::MacSparseImage => "Mac OS sparse image (.sparseimage)",
        _ => return None,
    })
}

/// The image layers of a scan that hold another byte stream, in the words of a reason
/// ("Android sparse image", "QCOW2 image", …), outermost first, each named once.
fn containers(root: &Node) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        // a super partition is found by its probe (its layer is the file or partition)
        let name = container_name(&n.layer.kind).or_else(|| {
            n.probe
                .as_ref()
                .is_some_and(|p| p.format == Format::AndroidSuper)
                .then_some("Android super image")
        });
        if let Some(name) = name
            && !out.contains(&name)
        {
            out.push(name);
        }
        stack.extend(n.children.iter().rev());
    }
    out
}
