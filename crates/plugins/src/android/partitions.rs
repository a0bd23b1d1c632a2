//! The partition table and the encryption verdict.

use masf_agents::{AgentCtx, PhenomenonDraft, RuntimeError};
use masf_graph::FactType;
use serde_json::json;

use crate::calls::succeeded;
use crate::drafts::fact;
use crate::identity::record;

/// One row of `partition_table`'s output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionRow {
    /// 1-based index.
    pub index: String,
    /// GPT name (`-` when none).
    pub name: String,
    /// The partition type's name.
    pub type_name: String,
    /// The file system found, or why none could be read.
    pub content: String,
}

/// Reads `partition_table`'s tab-separated rows.
pub fn parse_partition_table(text: &str) -> Vec<PartitionRow> {
    text.lines()
        .skip(1)
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let cols: Vec<&str> = l.splitn(7, '\t').collect();
            (cols.len() == 7).then(|| PartitionRow {
                index: cols[1].to_string(),
                name: cols[2].to_string(),
                type_name: cols[3].to_string(),
                content: cols[6].to_string(),
            })
        })
        .collect()
}

/// The encryption verdict `fs_info` gives each partition: (index, verdict) for every partition
/// whose verdict is not `none`.
pub fn encrypted_partitions(fs_info: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in fs_info.lines() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("partition: #") {
            current = rest.split(' ').next().map(str::to_string);
        } else if let Some(verdict) = t.strip_prefix("encryption: ")
            && verdict != "none"
            && let Some(index) = &current
            && !out.iter().any(|(i, _): &(String, String)| i == index)
        {
            out.push((index.clone(), verdict.to_string()));
        }
    }
    out
}

/// The file-system formats whose content the file tools can read.
fn readable(content: &str) -> bool {
    matches!(
        content,
        "ext2" | "ext3" | "ext4" | "f2fs" | "fat12" | "fat16" | "fat32" | "vfat" | "ntfs" | "exfat"
    )
}

/// Records the partitions with their content and encryption; notes every encrypted or
/// unreadable partition as unparsed with the reason.
pub fn triage(ctx: &AgentCtx<'_>) -> Result<(), RuntimeError> {
    let table = ctx.call("partition_table", json!({}))?;
    let info = ctx.call("fs_info", json!({}))?;
    if !succeeded(&table) {
        ctx.unparsed(
            "partition table",
            &crate::calls::failure_reason(&table),
            Some(&table.record.invocation_id),
        )?;
        return Ok(());
    }
    let rows = parse_partition_table(&table.output.text);
    let encrypted = if succeeded(&info) {
        encrypted_partitions(&info.output.text)
    } else {
        Vec::new()
    };
    // A partition is readable when the scan opened a file system in it.
    let source = ctx.session().source(&ctx.source().id)?;
    let opened: Vec<usize> = source
        .scan
        .file_systems()
        .iter()
        .filter_map(|f| f.partition.map(|p| p.index))
        .collect();
    let opened_whole = source
        .scan
        .file_systems()
        .iter()
        .any(|f| f.partition.is_none());
    let mut facts = Vec::new();
    let mut unreadable = Vec::new();
    let mut enc_names = Vec::new();
    for row in &rows {
        facts.push(fact(FactType::Name, &row.name, &table));
        facts.push(fact(FactType::Text, &row.content, &table));
        let is_open = row
            .index
            .parse::<usize>()
            .is_ok_and(|i| opened.contains(&i));
        if let Some((_, verdict)) = encrypted.iter().find(|(i, _)| *i == row.index) {
            facts.push(fact(FactType::Text, verdict, &info));
            enc_names.push(row.name.clone());
            ctx.unparsed(
                &format!("partition {}", row.name),
                &format!("{verdict} (file contents cannot be read without the device keys)"),
                Some(&info.record.invocation_id),
            )?;
        } else if !is_open {
            unreadable.push(row.name.clone());
            let why = if readable(&row.content) {
                "its file system could not be opened".to_string()
            } else {
                row.content.clone()
            };
            ctx.unparsed(
                &format!("partition {}", row.name),
                &why,
                Some(&table.record.invocation_id),
            )?;
        }
    }
    // A partition image (a `userdata.img`, a sparse image of one partition) has no table and
    // is no failure: its file system was opened whole.
    if rows.is_empty() {
        if !opened_whole {
            ctx.unparsed(
                "partition table",
                "the disk has no partition table",
                Some(&table.record.invocation_id),
            )?;
        }
        return Ok(());
    }
    let list = |v: &[String]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    let interpretation = format!(
        "The disk has {} partitions ({}). Encrypted: {}. Not readable: {}. Readable partitions were searched for artefacts.",
        rows.len(),
        rows.iter()
            .map(|r| format!("{} = {}", r.name, r.content))
            .collect::<Vec<_>>()
            .join("; "),
        list(&enc_names),
        list(&unreadable),
    );
    record(
        ctx,
        PhenomenonDraft {
            category: "partitions".into(),
            title: format!(
                "{} partitions; encrypted: {}; unreadable: {}",
                rows.len(),
                list(&enc_names),
                list(&unreadable)
            ),
            facts,
            interpretation,
            times: vec![],
        },
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fs_info_encryption_per_partition() {
        let info = "form: disk_image\nlayer: file\n  layer: partition index=5\n    partition: #5 userdata (Android data)\n    format: ext4\n    encryption: file-based encryption: ext4 encrypt feature\n      layer: ext4\n        encryption: none\n  layer: partition\n    partition: #4 system (x)\n    encryption: none\n";
        assert_eq!(
            encrypted_partitions(info),
            [(
                "5".to_string(),
                "file-based encryption: ext4 encrypt feature".to_string()
            )]
        );
    }
}
