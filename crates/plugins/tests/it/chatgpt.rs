//! ChatGPT on iOS (`ios::chatgpt`): Ava's iPhone (two conversations, a draft, the account's
//! preferences) and Ben's (an older conversation without its configuration, with an image part
//! among the text parts), written by Python (`json`, `plistlib`) in the layout iLEAPP's
//! `chatgpt` artefacts read (no public copy is in the corpus). Every value iLEAPP's readings show
//! (Python, as iLEAPP reads the files) is found, each text part as its own fact where iLEAPP
//! joins the parts with line breaks; the account's e-mail and user id are the owner's; a prompt's
//! wallet address is the user's claim. Beside them a malformed file and a JSON that is no
//! conversation (noted), and another app's UUID-named JSON (passed over).
//!
//! Then ChatGPT on Android (`android::chatgpt`): Ava's Android phone (the newer store, messages
//! in `DBMessageChunk` chunks written out of order) and an older phone (`DBMessage.messageNode`),
//! with their DataStore preferences written by Google's protobuf runtime (one value longer than
//! 127 bytes, decoded as a message, one shorter, which the tool prints as text). Every row and
//! field of ALEAPP's queries (the sqlite3 CLI) and of its chunk reading (Python) is found; Ava's
//! iPhone and Android phone are one person by the account's e-mail.

use crate::android_support::triage;

/// argv[1]: Ava's container, argv[2]: Ben's; prints `<file>\t<value>` for each value iLEAPP
/// shows.
const WRITE: &str = r#"
import json, os, plistlib, sys
ava, ben = sys.argv[1], sys.argv[2]
def put(root, rel, doc):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, 'w', encoding='utf-8') as f:
        json.dump(doc, f, ensure_ascii=False)
    return os.path.basename(p)
def msg(role, parts, t, **meta):
    return {'content': {'author': {'role': role}, 'content': {'parts': parts}, 'content_type': 'text', 'create_time': t, 'metadata': meta}}
conv1 = {'id': '6578a3b2-1c2d-4e5f-8a9b-0c1d2e3f4a5b', 'title': 'Moving crypto', 'creation_date': 722001000.25, 'modification_date': 722002000.5,
         'configuration': {'model': 'gpt-4o', 'is_temporary_chat': False, 'custom_instructions': {'about_model_message': 'Be brief', 'about_user_message': 'I trade tokens', 'active': True}},
         'tree': {'storage': {
             'aaa1-user': msg('user', ['How do I move 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7 without fees?'], 1701340800.5),
             'aaa2-asst': msg('assistant', ['You cannot avoid gas fees entirely.'], 1701340805.25, finish_details={'type': 'stop'}, model_slug='gpt-4o', voice_mode_message=False),
             'aaa3-sys': msg('system', [''], 1701340700.0)}}}
conv2 = {'id': '7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d', 'title': 'Trip', 'creation_date': 722003000.0,
         'tree': {'storage': {'bbb1': msg('user', ['Train times Zürich to Bern'], 1701341800.0)}}}
app = 'Library/Application Support'
files = [(ava, f'{app}/conversations-user-abc123/{conv1["id"]}.json', conv1), (ava, f'{app}/conversations-user-abc123/{conv2["id"]}.json', conv2)]
older = {'id': '8c9d0e1f-2a3b-4c5d-8e6f-7a8b9c0d1e2f', 'title': 'Photo', 'creation_date': 700000000.0,
         'tree': {'storage': {'ccc1': msg('user', ['What is in this photo?', {'content_type': 'image_asset_pointer', 'asset_pointer': 'file-service://file-X1'}], 1680000000.0)}}}
files.append((ben, f'{app}/conversations-user-def456/{older["id"]}.json', older))
for root, rel, doc in files:
    name = put(root, rel, doc)
    cfg = doc.get('configuration', {})
    ci = cfg.get('custom_instructions', {})
    for v in (doc.get('title'), doc.get('id'), cfg.get('model'), ci.get('about_model_message'), ci.get('about_user_message')):
        if v:
            print(name + '\t' + v)
    for mid, m in doc['tree']['storage'].items():
        c = m['content']
        print(name + '\t' + mid)
        print(name + '\t' + c['author']['role'])
        for p in c['content']['parts']:
            if isinstance(p, str) and p:
                print(name + '\t' + p)
        fd = c['metadata'].get('finish_details', {}).get('type')
        if fd:
            print(name + '\t' + fd)
put(ava, f'{app}/drafts-user-abc123/6578a3b2-1c2d-4e5f-8a9b-0c1d2e3f4a5b.json', {'conversation_id': conv1['id'], 'content': {'text': 'and what about USDT?'}})
print('draft\tand what about USDT?')
pref = os.path.join(ava, 'Library/Preferences/com.openai.chat.StatsigService.plist')
os.makedirs(os.path.dirname(pref), exist_ok=True)
with open(pref, 'wb') as f:
    plistlib.dump({'accountID': 'acct-77', 'userID': 'user-abc123', 'userEmail': 'ava.keller@example.com', 'planType': 'plus'}, f, fmt=plistlib.FMT_BINARY)
# a malformed conversation, a JSON that is no conversation, another app's UUID-named JSON
bad = os.path.join(ben, f'{app}/conversations-user-def456/9d0e1f2a-3b4c-4d5e-9f6a-7b8c9d0e1f2a.json')
with open(bad, 'w') as f:
    f.write('{"id": "9d0e", "tree": {"stor')
put(ben, f'{app}/conversations-user-def456/0e1f2a3b-4c5d-4e6f-8a7b-8c9d0e1f2a3b.json', {'id': 'x', 'title': 'no tree'})
put(ben, 'Documents/1f2a3b4c-5d6e-4f7a-9b8c-9d0e1f2a3b4c.json', {'tree': {'storage': {'z': msg('user', ['not ChatGPT'], 1.0)}}})
"#;

#[test]
fn chatgpt_conversations_drafts_and_account_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let (ava, ben) = (tmp.path().join("ava-iphone"), tmp.path().join("ben-iphone"));
    let container = |root: &std::path::Path, id: &str| {
        root.join("private/var/mobile/Containers/Data/Application")
            .join(id)
    };
    let (ac, bc) = (
        container(&ava, "2B3C4D5E-6F70-4812-9A3B-4C5D6E7F8091"),
        container(&ben, "3C4D5E6F-7081-4923-8B4C-5D6E7F809102"),
    );
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(WRITE)
        .args([ac.as_os_str(), bc.as_os_str()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let values: Vec<(String, String)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    for root in [&ava, &ben] {
        std::fs::create_dir_all(root.join("private/var/mobile/Library")).unwrap();
    }
    let run = triage(&[
        ("ava-iphone", &ava, "Europe/Zurich", Some("CH")),
        ("ben-iphone", &ben, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let mut all = run.all_phenomena("ava-iphone");
    all.extend(run.all_phenomena("ben-iphone"));
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let chat: Vec<&masf_graph::Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("ChatGPT"))
        .collect();
    // 3 conversations, 5 messages, a draft, the account
    assert_eq!(
        chat.len(),
        3 + 5 + 1 + 1,
        "{:#?}",
        chat.iter().map(|p| &p.title).collect::<Vec<_>>()
    );
    for (file, v) in &values {
        assert!(
            chat.iter().any(|p| (file == "draft"
                || p.verified_facts
                    .iter()
                    .any(|f| f.value.ends_with(file.as_str())))
                && p.verified_facts.iter().any(|f| f.value == *v)),
            "{file}: {v}"
        );
    }
    let prompt = chat
        .iter()
        .find(|p| p.title == "ChatGPT prompt in Moving crypto")
        .expect("prompt");
    assert!(prompt.times.iter().any(|t| t.description == "Message sent"));
    assert!(
        chat.iter()
            .any(|p| p.title == "ChatGPT assistant message in Moving crypto")
    );
    // the account and the prompt's wallet: the device's user's
    let owner = run.owner("ava-iphone");
    assert!(owner.contains("email=ava.keller@example.com"), "{owner}");
    assert!(owner.contains("account_id=chatgpt:user-abc123"), "{owner}");
    assert!(
        owner.contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7"),
        "{owner}"
    );
    run.assert_noted(
        "ben-iphone",
        &[
            ("9d0e1f2a-3b4c-4d5e-9f6a-7b8c9d0e1f2a.json", ""),
            (
                "0e1f2a3b-4c5d-4e6f-8a7b-8c9d0e1f2a3b.json",
                "no tree.storage",
            ),
        ],
    );
    assert!(
        !all.iter()
            .any(|p| p.verified_facts.iter().any(|f| f.value == "not ChatGPT"))
    );
}

/// argv[1]: the first Android phone's app folder (the newer store), argv[2]: the second's (the
/// older); prints `<message id>\t<value>` for each value ALEAPP's chunk reading shows.
const ANDROID: &str = r#"
import json, os, sqlite3, sys
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
new, old = sys.argv[1], sys.argv[2]
for d in (new, old):
    os.makedirs(os.path.join(d, 'databases'), exist_ok=True)
    os.makedirs(os.path.join(d, 'files/datastore'), exist_ok=True)
F = descriptor_pb2.FieldDescriptorProto
fd = descriptor_pb2.FileDescriptorProto(name="prefs.proto", package="p", syntax="proto2")
def message(name, fields):
    m = fd.message_type.add(name=name)
    for number, fname, kind, label, type_name in fields:
        f = m.field.add(name=fname, number=number, type=kind, label=label)
        if type_name:
            f.type_name = ".p." + type_name
O, R, S, M = F.LABEL_OPTIONAL, F.LABEL_REPEATED, F.TYPE_STRING, F.TYPE_MESSAGE
message("Value", [(5, "string", S, O, None)])
message("Entry", [(1, "key", S, O, None), (2, "value", M, O, "Value")])
message("Map", [(1, "preferences", M, R, "Entry")])
pool = descriptor_pool.DescriptorPool()
pool.Add(fd)
Map = message_factory.GetMessageClass(pool.FindMessageTypeByName("p.Map"))
prefs = Map()
e = prefs.preferences.add(key="user")
e.value.string = json.dumps({'id': 'user-abc123', 'email': 'ava.keller@example.com', 'name': 'Ava Keller', 'picture': 'https://s.gravatar.com/avatar/0a1b2c3d4e5f60718293a4b5c6d7e8f9?s=480&r=pg', 'created': 1690000000})
open(os.path.join(new, 'files/datastore/user-abc123_user.preferences_pb'), 'wb').write(prefs.SerializeToString())
# a short value (under 128 bytes: a printable message the tool shows as text)
short = Map()
e = short.preferences.add(key="user")
e.value.string = json.dumps({'id': 'user-old', 'email': 'old.user@example.org'})
open(os.path.join(old, 'files/datastore/user-old_user.preferences_pb'), 'wb').write(short.SerializeToString())
db = sqlite3.connect(os.path.join(new, 'databases/user-abc123_conversations.db'))
db.executescript("""
CREATE TABLE DBConversation (id TEXT PRIMARY KEY, conversation TEXT);
CREATE TABLE DBMessageChunk (messageId TEXT, chunkIndex INTEGER, chunk BLOB, PRIMARY KEY (messageId, chunkIndex));
""")
conv = {'id': 'c-1', 'remote_id': '6578a3b2-1c2d-4e5f-8a9b-0c1d2e3f4a5b', 'creation_date': '2023-11-30T10:00:00.000Z', 'modification_date': '2023-11-30T10:05:00.000Z', 'title': 'Moving crypto', 'moderation_results': [], 'gizmo_id': None, 'has_title': True}
db.execute("INSERT INTO DBConversation VALUES ('c-1', ?)", (json.dumps(conv),))
msgs = {
    'm-1': {'content': {'conversation_id': 'c-1', 'role': 'user', 'created_date': '2023-11-30T10:00:01.500Z', 'content': {'content': 'Send 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7 cheaply?'}}},
    'm-2': {'content': {'conversation_id': 'c-1', 'role': 'assistant', 'created_date': '2023-11-30T10:00:04Z', 'modification_date': '2023-11-30T10:00:09Z', 'content': {'content': 'Gas fees always apply; a layer-2 network is cheaper.', 'references': ['https://example.org/l2']}}},
}
for mid, m in msgs.items():
    text = json.dumps(m)
    pieces = [text[i:i + 40] for i in range(0, len(text), 40)]
    for i, p in reversed(list(enumerate(pieces))):
        db.execute("INSERT INTO DBMessageChunk VALUES (?, ?, ?)", (mid, i, p.encode('utf-8')))
db.commit()
# ALEAPP's reading: the chunks in order, the JSON, its fields
for mid in msgs:
    rows = db.execute("SELECT chunkIndex, chunk FROM DBMessageChunk WHERE messageId = ?", (mid,)).fetchall()
    m = json.loads(''.join(c.decode('utf-8') for _, c in sorted(rows)))
    c = m['content']
    inner = c.get('content')
    text = inner.get('content') if isinstance(inner, dict) else inner
    for v in (mid, c.get('created_date'), c.get('modification_date'), c.get('conversation_id'), text, conv['title']):
        if v:
            print(mid + '\t' + v)
db = sqlite3.connect(os.path.join(old, 'databases/user-old_conversations.db'))
db.executescript("""
CREATE TABLE DBConversation (id TEXT PRIMARY KEY, conversation TEXT);
CREATE TABLE DBMessage (id TEXT PRIMARY KEY, conversationId TEXT, messageNode TEXT);
""")
db.execute("INSERT INTO DBConversation VALUES ('k-1', ?)", (json.dumps({'id': 'k-1', 'title': 'Recipes', 'creation_date': '2023-01-01T09:00:00Z', 'has_title': True}),))
db.execute("INSERT INTO DBMessage VALUES ('n-1', 'k-1', ?)", (json.dumps({'content': {'role': 'user', 'content': {'content': {'content': 'Bread recipe?'}}, 'date': '2023-01-01T09:00:05Z', 'is_complete': True, 'is_voice_message': False}}),))
db.execute("INSERT INTO DBMessage VALUES ('n-2', 'k-1', ?)", (json.dumps({'content': {'role': 'assistant', 'role_name': 'ChatGPT', 'model': 'gpt-3.5', 'content': {'content': {'content': 'Flour, water, salt, yeast.'}}, 'date': '2023-01-01T09:00:07Z', 'is_complete': True, 'is_flagged': False}}),))
db.commit()
"#;

#[test]
fn chatgpt_on_android_and_the_same_account_on_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let (ava, ben) = (tmp.path().join("ava-iphone"), tmp.path().join("ben-iphone"));
    let (an, old) = (
        tmp.path().join("ava-android"),
        tmp.path().join("old-android"),
    );
    let ac = ava.join(
        "private/var/mobile/Containers/Data/Application/2B3C4D5E-6F70-4812-9A3B-4C5D6E7F8091",
    );
    let bc = ben.join(
        "private/var/mobile/Containers/Data/Application/3C4D5E6F-7081-4923-8B4C-5D6E7F809102",
    );
    let st = std::process::Command::new("python3")
        .arg("-c")
        .arg(WRITE)
        .args([ac.as_os_str(), bc.as_os_str()])
        .output()
        .unwrap();
    assert!(st.status.success());
    std::fs::create_dir_all(ava.join("private/var/mobile/Library")).unwrap();
    let app = |root: &std::path::Path| root.join("data/data/com.openai.chatgpt");
    let python = masf_testkit::corpus::py_oracle("python3", "protobuf");
    let out = std::process::Command::new(python)
        .arg("-c")
        .arg(ANDROID)
        .args([app(&an).as_os_str(), app(&old).as_os_str()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let chunks: Vec<(String, String)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    for root in [&an, &old] {
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    }
    let run = triage(&[
        ("ava-iphone", &ava, "Europe/Zurich", Some("CH")),
        ("ava-android", &an, "Europe/Zurich", Some("CH")),
        ("old-android", &old, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("ava-android");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let db = app(&an).join("databases/user-abc123_conversations.db");
    assert_eq!(
        crate::android_support::check(
            &all,
            "ChatGPT conversation",
            &db,
            "SELECT id, json_extract(conversation, '$.id'), json_extract(conversation, '$.remote_id'), json_extract(conversation, '$.creation_date'), json_extract(conversation, '$.modification_date'), json_extract(conversation, '$.title'), json_extract(conversation, '$.gizmo_id'), json_extract(conversation, '$.has_title') FROM DBConversation",
            0
        ),
        1
    );
    // ALEAPP's chunked messages, each value in its message
    let msgs: Vec<&masf_graph::Phenomenon> = all
        .iter()
        .filter(|p| {
            p.title.starts_with("ChatGPT")
                && !p.title.starts_with("ChatGPT conversation")
                && !p.title.starts_with("ChatGPT account")
        })
        .collect();
    assert_eq!(msgs.len(), 2);
    for (id, v) in &chunks {
        let p = msgs
            .iter()
            .find(|p| p.verified_facts.iter().any(|f| f.value == *id))
            .unwrap_or_else(|| panic!("{id}"));
        assert!(
            p.verified_facts.iter().any(|f| f.value == *v),
            "{v} in {p:#?}"
        );
    }
    assert!(
        msgs.iter()
            .any(|p| p.title == "ChatGPT prompt in Moving crypto")
    );
    // the older store: ALEAPP's messageNode query
    let oall = run.all_phenomena("old-android");
    let odb = app(&old).join("databases/user-old_conversations.db");
    let omsgs: Vec<&masf_graph::Phenomenon> = oall
        .iter()
        .filter(|p| p.title.starts_with("ChatGPT") && !p.title.starts_with("ChatGPT account"))
        .collect();
    assert_eq!(omsgs.len(), 3);
    assert_eq!(
        crate::android_support::rows_in(
            &omsgs,
            &odb,
            "SELECT DBMessage.id, DBMessage.conversationId, json_extract(DBConversation.conversation, '$.title'), json_extract(DBMessage.messageNode, '$.content.role'), json_extract(DBMessage.messageNode, '$.content.content.content'), json_extract(DBMessage.messageNode, '$.content.date'), json_extract(DBMessage.messageNode, '$.content.role_name'), json_extract(DBMessage.messageNode, '$.content.model'), json_extract(DBMessage.messageNode, '$.content.is_complete'), json_extract(DBMessage.messageNode, '$.content.is_flagged') FROM DBMessage JOIN DBConversation ON DBMessage.conversationId = DBConversation.id UNION ALL SELECT id, json_extract(conversation, '$.id'), json_extract(conversation, '$.title'), NULL, NULL, json_extract(conversation, '$.creation_date'), NULL, NULL, json_extract(conversation, '$.has_title'), NULL FROM DBConversation",
            0,
            ""
        ),
        3
    );
    // who is who: one account on the iPhone and the Android phone, by its e-mail
    assert!(
        run.owner("ava-android")
            .contains("email=ava.keller@example.com")
    );
    assert!(
        run.owner("old-android")
            .contains("email=old.user@example.org")
    );
    assert!(
        run.owner("ava-android")
            .contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7")
    );
    let with = crate::who::resolved(&run);
    assert!(
        with("ava-iphone/owner").contains(&"ava-android/owner".to_string()),
        "{:#?}",
        with("ava-iphone/owner")
    );
}
