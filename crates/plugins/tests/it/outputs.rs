use masf_plugins::outputs::{Table, found_paths, unescape};

#[test]
fn sqlite_query_text_reads_back() {
    let text = "ROWID\ttext\thandle\n1\tline\\none\\ttab\tNULL\n2\tback\\\\slash\t+85261234567\n# truncated at limit 2\n";
    let t = Table::parse(text);
    assert_eq!(t.columns, ["ROWID", "text", "handle"]);
    assert!(t.truncated);
    assert_eq!(t.rows.len(), 2);
    assert_eq!(t.get(&t.rows[0], "text"), Some("line\none\ttab"));
    assert_eq!(t.get(&t.rows[0], "handle"), None);
    assert_eq!(t.get(&t.rows[1], "text"), Some("back\\slash"));
    assert_eq!(unescape("a\\qb"), "a\\qb");
}

#[test]
fn find_output_paths() {
    let out = "kind\tsize\tid\tmode\tdeleted\ttimes\tpath\nfile\t10\t5\t644\t-\t-\t/a/sms.db\ndir\t0\t6\t755\t-\t-\t/a/b\nfile\t3\t7\t-\tdeleted\t-\t/a/old.db\n# error: /x: bad\n";
    assert_eq!(found_paths(out), ["/a/sms.db"]);
}
