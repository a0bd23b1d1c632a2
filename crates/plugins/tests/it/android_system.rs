//! The Android system artefacts (`android::system`): saved Wi-Fi networks, Bluetooth pairings,
//! the calendar provider and the media store, on fixtures made at test time — the databases by
//! the sqlite3 CLI with AOSP's own `CREATE TABLE` statements (a subset of the columns, names
//! and types as AOSP writes them), the text files in the shape AOSP writes them — in two
//! Android generations, with broken copies beside them.

use std::path::Path;

use masf_agents::Plugin;
use masf_graph::{Phenomenon, TimeEncoding};

use crate::android_support::triage;

/// Secrets planted in the fixtures: no phenomenon may hold any of them.
const SECRETS: &[&str] = &[
    "Sup3r&amp;S3cret",
    "Sup3r&S3cret",
    "c0ffeec0ffee",
    "9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    "a1b2c3d4e5f60718293a4b5c6d7e8f90",
    "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
    "OldCafePass",
    "1234567890abcdef1234567890abcdef",
];

/// Android 10's `WifiConfigStore.xml` (`/data/misc/wifi/`), in the order and shape of AOSP
/// `frameworks/opt/net/wifi` `service/java/com/android/server/wifi/util/XmlUtil.java`
/// (`WifiConfigurationXmlUtil.writeToXmlForConfigStore`, `NetworkSelectionStatusXmlUtil`,
/// `IpConfigurationXmlUtil`) as written by `WifiConfigStore.java` with `XmlUtils`: the key in
/// clear. The SSID holds an `&` (escaped by the serializer).
const WIFI_Q: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<WifiConfigStoreData>
<int name="Version" value="1" />
<NetworkList>
<Network>
<WifiConfiguration>
<string name="ConfigKey">&quot;Home&amp;Garden&quot;WPA_PSK</string>
<string name="SSID">&quot;Home&amp;Garden&quot;</string>
<null name="BSSID" />
<string name="PreSharedKey">&quot;Sup3r&amp;S3cret&quot;</string>
<null name="WEPKeys" />
<int name="WEPTxKeyIndex" value="0" />
<boolean name="HiddenSSID" value="false" />
<boolean name="RequirePMF" value="false" />
<byte-array name="AllowedKeyMgmt" num="1">02</byte-array>
<byte-array name="AllowedProtocols" num="1">03</byte-array>
<byte-array name="AllowedAuthAlgos" num="1">01</byte-array>
<byte-array name="AllowedGroupCiphers" num="1">0f</byte-array>
<byte-array name="AllowedPairwiseCiphers" num="1">06</byte-array>
<byte-array name="AllowedGroupMgmtCiphers" num="0"></byte-array>
<byte-array name="AllowedSuiteBCiphers" num="0"></byte-array>
<boolean name="Shared" value="true" />
<int name="Status" value="2" />
<null name="FQDN" />
<null name="ProviderFriendlyName" />
<null name="LinkedNetworksList" />
<string name="DefaultGwMacAddress">e4:8d:8c:11:22:33</string>
<boolean name="ValidatedInternetAccess" value="true" />
<boolean name="NoInternetAccessExpected" value="false" />
<int name="UserApproved" value="0" />
<boolean name="MeteredHint" value="false" />
<int name="MeteredOverride" value="0" />
<boolean name="UseExternalScores" value="false" />
<int name="NumAssociation" value="14" />
<int name="CreatorUid" value="1000" />
<string name="CreatorName">android.uid.system:1000</string>
<string name="CreationTime">time=03-02 09:15:27.412</string>
<int name="LastUpdateUid" value="1000" />
<string name="LastUpdateName">android.uid.system:1000</string>
<int name="LastConnectUid" value="1000" />
<boolean name="IsLegacyPasspointConfig" value="false" />
<long-array name="RoamingConsortiumOIs" num="0" />
<string name="RandomizedMacAddress">ae:51:9b:0c:44:e1</string>
<int name="MacRandomizationSetting" value="1" />
</WifiConfiguration>
<NetworkStatus>
<string name="SelectionStatus">NETWORK_SELECTION_ENABLED</string>
<string name="DisableReason">NETWORK_SELECTION_ENABLE</string>
<null name="ConnectChoice" />
<long name="ConnectChoiceTimeStamp" value="1709371200000" />
<boolean name="HasEverConnected" value="true" />
</NetworkStatus>
<IpConfiguration>
<string name="IpAssignment">DHCP</string>
<string name="ProxySettings">NONE</string>
</IpConfiguration>
</Network>
<Network>
<WifiConfiguration>
<string name="ConfigKey">&quot;Airport Free WiFi&quot;NONE</string>
<string name="SSID">&quot;Airport Free WiFi&quot;</string>
<null name="BSSID" />
<null name="PreSharedKey" />
<null name="WEPKeys" />
<int name="WEPTxKeyIndex" value="0" />
<boolean name="HiddenSSID" value="false" />
<byte-array name="AllowedKeyMgmt" num="1">01</byte-array>
<int name="CreatorUid" value="10123" />
<string name="CreatorName">com.example.hotspotfinder</string>
<int name="LastUpdateUid" value="10123" />
<string name="LastUpdateName">com.example.hotspotfinder</string>
<string name="RandomizedMacAddress">42:19:77:aa:01:5c</string>
</WifiConfiguration>
<NetworkStatus>
<string name="SelectionStatus">NETWORK_SELECTION_ENABLED</string>
<string name="DisableReason">NETWORK_SELECTION_ENABLE</string>
<null name="ConnectChoice" />
<long name="ConnectChoiceTimeStamp" value="-1" />
<boolean name="HasEverConnected" value="false" />
</NetworkStatus>
<IpConfiguration>
<string name="IpAssignment">DHCP</string>
<string name="ProxySettings">NONE</string>
</IpConfiguration>
</Network>
</NetworkList>
<DeletedEphemeralSSIDList />
</WifiConfigStoreData>
"#;

/// Android 12's `WifiConfigStore.xml` in the Wi-Fi module's apex data
/// (`/data/misc/apexdata/com.android.wifi/`), shaped as AOSP `packages/modules/Wifi`
/// `service/java/com/android/server/wifi/util/XmlUtil.java` writes it: the key as an
/// `EncryptedData` section (`writePreSharedKeyToXml` with a `WifiConfigStoreEncryptionUtil`),
/// a `SecurityParamsList`, `AutoJoinEnabled`, `IsMostRecentlyConnected`.
const WIFI_S: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<WifiConfigStoreData>
<int name="Version" value="3" />
<NetworkList>
<Network>
<WifiConfiguration>
<string name="ConfigKey">&quot;Office-5G&quot;SAE</string>
<string name="SSID">&quot;Office-5G&quot;</string>
<PreSharedKey>
<EncryptedData>
<byte-array name="EncryptedData" num="16">9f8e7d6c5b4a39281706f5e4d3c2b1a0</byte-array>
<byte-array name="IV" num="12">c0ffeec0ffeec0ffeec0ffee</byte-array>
</EncryptedData>
</PreSharedKey>
<null name="WEPKeys" />
<int name="WEPTxKeyIndex" value="0" />
<boolean name="HiddenSSID" value="true" />
<boolean name="RequirePMF" value="true" />
<byte-array name="AllowedKeyMgmt" num="2">0001</byte-array>
<boolean name="Shared" value="false" />
<boolean name="AutoJoinEnabled" value="true" />
<SecurityParamsList>
<SecurityParams>
<int name="SecurityType" value="4" />
<boolean name="IsEnabled" value="true" />
<boolean name="SaeIsH2eOnlyMode" value="false" />
<boolean name="SaeIsPkOnlyMode" value="false" />
<boolean name="IsAddedByAutoUpgrade" value="false" />
</SecurityParams>
</SecurityParamsList>
<null name="BSSID" />
<int name="Status" value="2" />
<int name="CreatorUid" value="10211" />
<string name="CreatorName">com.android.settings</string>
<int name="LastUpdateUid" value="10211" />
<string name="LastUpdateName">com.android.settings</string>
<int name="LastConnectUid" value="1000" />
<string name="RandomizedMacAddress">d2:6a:1f:30:7b:99</string>
<int name="MacRandomizationSetting" value="3" />
<boolean name="IsMostRecentlyConnected" value="true" />
</WifiConfiguration>
<NetworkStatus>
<string name="SelectionStatus">NETWORK_SELECTION_ENABLED</string>
<string name="DisableReason">NETWORK_SELECTION_ENABLE</string>
<null name="ConnectChoice" />
<boolean name="HasEverConnected" value="true" />
</NetworkStatus>
<IpConfiguration>
<string name="IpAssignment">DHCP</string>
<string name="ProxySettings">NONE</string>
</IpConfiguration>
</Network>
</NetworkList>
</WifiConfigStoreData>
"#;

/// `bt_config.conf` as AOSP `system/bt` `btif/src/btif_config.cc` (`config_save` of
/// `osi/src/config.cc`) writes it: `[Info]`, `[Adapter]`, one section per device address.
fn bt_config(adapter_name: &str, own: &str) -> String {
    format!(
        "[Info]
FileSource = Empty
TimeCreated = 2024-01-05 08:12:44

[Metrics]
Salt256Bit = 1234567890abcdef1234567890abcdef

[Adapter]
Address = {own}
LE_LOCAL_KEY_IRK = a1b2c3d4e5f60718293a4b5c6d7e8f90
Name = {adapter_name}
ScanMode = 0
DiscoveryTimeout = 120

[00:1a:7d:da:71:13]
Timestamp = 1704442964
Name = JBL Flip 4
DevClass = 2360324
DevType = 1
AddrType = 0
Manufacturer = 15
LMPVer = 6
LMPSubVer = 8716
Service = 0000110b-0000-1000-8000-00805f9b34fb 0000110e-0000-1000-8000-00805f9b34fb
LinkKeyType = 5
PinLength = 0
LinkKey = 0f1e2d3c4b5a69788796a5b4c3d2e1f0

[f4:5c:89:aa:bb:cc]
Timestamp = 1706000000
Name = Mi Smart Band 6
DevType = 2
AddrType = 1
LE_KEY_PENC = 9f8e7d6c5b4a39281706f5e4d3c2b1a0
"
    )
}

/// Android 11's calendar provider (`CalendarDatabaseHelper.java` at android-11.0.0_r1,
/// `DATABASE_VERSION = 601`): `Calendars`, `Events`, `Attendees` with AOSP's column names and
/// types (a subset of the columns).
const CALENDAR_SQL: &str = "
CREATE TABLE Calendars (_id INTEGER PRIMARY KEY,account_name TEXT,account_type TEXT,_sync_id TEXT,dirty INTEGER,mutators TEXT,name TEXT,calendar_displayName TEXT,calendar_color INTEGER,calendar_color_index TEXT,calendar_access_level INTEGER,visible INTEGER NOT NULL DEFAULT 1,sync_events INTEGER NOT NULL DEFAULT 0,calendar_location TEXT,calendar_timezone TEXT,ownerAccount TEXT, isPrimary INTEGER, canOrganizerRespond INTEGER NOT NULL DEFAULT 1,canModifyTimeZone INTEGER DEFAULT 1,canPartiallyUpdate INTEGER DEFAULT 0,maxReminders INTEGER DEFAULT 5,allowedReminders TEXT DEFAULT '0,1',allowedAvailability TEXT DEFAULT '0,1',allowedAttendeeTypes TEXT DEFAULT '0,1,2',deleted INTEGER NOT NULL DEFAULT 0);
CREATE TABLE Events (_id INTEGER PRIMARY KEY AUTOINCREMENT,_sync_id TEXT,dirty INTEGER,mutators TEXT,lastSynced INTEGER DEFAULT 0,calendar_id INTEGER NOT NULL,title TEXT,eventLocation TEXT,description TEXT,eventColor INTEGER,eventColor_index TEXT,eventStatus INTEGER,selfAttendeeStatus INTEGER NOT NULL DEFAULT 0,dtstart INTEGER,dtend INTEGER,eventTimezone TEXT,duration TEXT,allDay INTEGER NOT NULL DEFAULT 0,accessLevel INTEGER NOT NULL DEFAULT 0,availability INTEGER NOT NULL DEFAULT 0,hasAlarm INTEGER NOT NULL DEFAULT 0,hasExtendedProperties INTEGER NOT NULL DEFAULT 0,rrule TEXT,rdate TEXT,exrule TEXT,exdate TEXT,original_id INTEGER,original_sync_id TEXT,originalInstanceTime INTEGER,originalAllDay INTEGER,lastDate INTEGER,hasAttendeeData INTEGER NOT NULL DEFAULT 0,guestsCanModify INTEGER NOT NULL DEFAULT 0,guestsCanInviteOthers INTEGER NOT NULL DEFAULT 1,guestsCanSeeGuests INTEGER NOT NULL DEFAULT 1,organizer STRING,isOrganizer INTEGER,deleted INTEGER NOT NULL DEFAULT 0,eventEndTimezone TEXT,customAppPackage TEXT,customAppUri TEXT,uid2445 TEXT);
CREATE TABLE Attendees (_id INTEGER PRIMARY KEY,event_id INTEGER,attendeeName TEXT,attendeeEmail TEXT,attendeeStatus INTEGER,attendeeRelationship INTEGER,attendeeType INTEGER,attendeeIdentity TEXT,attendeeIdNamespace TEXT);
INSERT INTO Calendars (_id, account_name, account_type, name, calendar_displayName, ownerAccount, isPrimary) VALUES
 (1, 'mia.chan.hk@gmail.com', 'com.google', 'mia.chan.hk@gmail.com', 'mia.chan.hk@gmail.com', 'mia.chan.hk@gmail.com', 1),
 (2, 'mia.chan.hk@gmail.com', 'com.google', 'Holidays in Hong Kong', 'Holidays in Hong Kong', 'en.hong_kong#holiday@group.v.calendar.google.com', 0),
 (3, 'mia.chan.hk@gmail.com', 'com.google', 'Team rota', 'Team rota', 'derek.wong.pm@gmail.com', 0);
INSERT INTO Events (_id, calendar_id, title, eventLocation, description, dtstart, dtend, eventTimezone, allDay, rrule, organizer, hasAttendeeData) VALUES
 (1, 1, 'Handover at pier', 'Central Pier 7, Hong Kong', 'bring the cash
and the second phone', 1709712000000, 1709715600000, 'Asia/Hong_Kong', 0, NULL, 'mia.chan.hk@gmail.com', 1),
 (2, 2, 'Ching Ming Festival', NULL, NULL, 1712188800000, 1712275200000, 'UTC', 1, NULL, 'en.hong_kong#holiday@group.v.calendar.google.com', 0),
 (3, 3, 'Weekly sync', 'Room 12A', NULL, 1709884800000, 1709888400000, 'Asia/Hong_Kong', 0, 'FREQ=WEEKLY;BYDAY=FR', 'derek.wong.pm@gmail.com', 1);
INSERT INTO Attendees (_id, event_id, attendeeName, attendeeEmail, attendeeStatus, attendeeRelationship, attendeeType) VALUES
 (1, 1, 'Mia Chan', 'mia.chan.hk@gmail.com', 1, 2, 1),
 (2, 1, 'Bob Lee', 'bob.lee.trading@outlook.com', 4, 1, 1),
 (3, 3, 'Derek Wong', 'derek.wong.pm@gmail.com', 1, 2, 1),
 (4, 3, NULL, 'carol.tan@yahoo.com.hk', 2, 1, 1);
";

/// Android 9's media provider `external.db` (`MediaProvider.java` at android-9.0.0_r1,
/// `VERSION = 601`: `files` with `latitude`/`longitude` filled by the scanner; a subset of the
/// columns).
const MEDIA_P_SQL: &str = "
CREATE TABLE files (_id INTEGER PRIMARY KEY AUTOINCREMENT,_data TEXT UNIQUE COLLATE NOCASE,_size INTEGER,format INTEGER,parent INTEGER,date_added INTEGER,date_modified INTEGER,mime_type TEXT,title TEXT,description TEXT,_display_name TEXT,picasa_id TEXT,orientation INTEGER,latitude DOUBLE,longitude DOUBLE,datetaken INTEGER,mini_thumb_magic INTEGER,bucket_id TEXT,bucket_display_name TEXT,isprivate INTEGER,title_key TEXT,media_type INTEGER,width INTEGER, height INTEGER);
INSERT INTO files (_id, _data, _size, date_added, date_modified, mime_type, title, _display_name, latitude, longitude, datetaken, bucket_display_name, media_type, width, height) VALUES
 (1, '/storage/emulated/0/DCIM/Camera/IMG_20190305_141502.jpg', 2345678, 1551766502, 1551766502, 'image/jpeg', 'IMG_20190305_141502', 'IMG_20190305_141502.jpg', 22.2855, 114.1577, 1551766502000, 'Camera', 1, 4032, 3024),
 (2, '/storage/emulated/0/DCIM/Camera/VID_20190306_101010.mp4', 34567890, 1551838210, 1551838215, 'video/mp4', 'VID_20190306_101010', 'VID_20190306_101010.mp4', NULL, NULL, 1551838210000, 'Camera', 3, 1920, 1080),
 (3, '/storage/emulated/0/Documents/invoice.pdf', 12345, 1551900000, 1551900000, 'application/pdf', 'invoice', 'invoice.pdf', NULL, NULL, NULL, 'Documents', 0, NULL, NULL);
";

/// Android 11's media provider `external.db` (`DatabaseHelper.java` at android-11.0.0_r1,
/// `VERSION_R = 1114`): the same `files` with `owner_package_name`, `is_download`,
/// `relative_path`, and `latitude`/`longitude` kept as columns but emptied
/// (`updateClearLocation`: `UPDATE files SET latitude=NULL, longitude=NULL`).
const MEDIA_R_SQL: &str = "
CREATE TABLE files (_id INTEGER PRIMARY KEY AUTOINCREMENT,_data TEXT UNIQUE COLLATE NOCASE,_size INTEGER,format INTEGER,parent INTEGER,date_added INTEGER,date_modified INTEGER,mime_type TEXT,title TEXT,description TEXT,_display_name TEXT,picasa_id TEXT,orientation INTEGER,latitude DOUBLE,longitude DOUBLE,datetaken INTEGER,mini_thumb_magic INTEGER,bucket_id TEXT,bucket_display_name TEXT,isprivate INTEGER,title_key TEXT,media_type INTEGER,old_id INTEGER,is_drm INTEGER,width INTEGER, height INTEGER, title_resource_uri TEXT,owner_package_name TEXT DEFAULT NULL,is_pending INTEGER DEFAULT 0,is_download INTEGER DEFAULT 0, download_uri TEXT DEFAULT NULL,referer_uri TEXT DEFAULT NULL,is_trashed INTEGER DEFAULT 0,relative_path TEXT DEFAULT NULL,volume_name TEXT DEFAULT NULL);
INSERT INTO files (_id, _data, _size, date_added, date_modified, mime_type, _display_name, latitude, longitude, datetaken, bucket_display_name, media_type, width, height, owner_package_name, is_download, relative_path, volume_name) VALUES
 (10, '/storage/emulated/0/Pictures/WhatsApp/IMG-20240305-WA0003.jpg', 183422, 1709640000, 1709640000, 'image/jpeg', 'IMG-20240305-WA0003.jpg', NULL, NULL, 1709639990000, 'WhatsApp', 1, 1280, 960, 'com.whatsapp', 0, 'Pictures/WhatsApp/', 'external_primary'),
 (11, '/storage/emulated/0/Download/receipt.png', 55120, 1709650000, 1709650000, 'image/png', 'receipt.png', NULL, NULL, NULL, 'Download', 1, 720, 1600, 'com.android.chrome', 1, 'Download/', 'external_primary');
";

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

fn sqlite(root: &Path, rel: &str, sql: &str) -> std::path::PathBuf {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    let out = std::process::Command::new("sqlite3")
        .arg(&p)
        .arg(sql)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    p
}

fn values(p: &Phenomenon) -> Vec<&str> {
    p.verified_facts.iter().map(|f| f.value.as_str()).collect()
}

fn find<'a>(all: &'a [Phenomenon], title: &str) -> &'a Phenomenon {
    all.iter().find(|p| p.title == title).unwrap_or_else(|| {
        panic!(
            "no {title:?} in {:#?}",
            all.iter().map(|p| &p.title).collect::<Vec<_>>()
        )
    })
}

/// No phenomenon (title, fact, interpretation) holds a planted secret.
fn no_secret(all: &[Phenomenon]) {
    for p in all {
        for s in SECRETS {
            assert!(!p.title.contains(s), "{s} in {}", p.title);
            assert!(!p.interpretation.contains(s), "{s} in {}", p.interpretation);
            for f in &p.verified_facts {
                assert!(!f.value.contains(s), "{s} in a fact of {}", p.title);
            }
        }
    }
}

/// An Android 10–12 data tree: the Wi-Fi store in `/data/misc/wifi` (Android 10) and in the
/// Wi-Fi apex (Android 12), `bt_config.conf` in `/data/misc/bluetooth`, the calendar and the
/// media module's `external.db` (Android 11); beside them a truncated `calendar.db`, an
/// `external.db` of a foreign schema and a malformed `WifiConfigStore.xml`, each noted while
/// everything else is read.
#[test]
fn android_11_system_artefacts_and_broken_copies() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    write(root, "misc/wifi/WifiConfigStore.xml", WIFI_Q.as_bytes());
    write(
        root,
        "misc/apexdata/com.android.wifi/WifiConfigStore.xml",
        WIFI_S.as_bytes(),
    );
    write(
        root,
        "misc/bluetooth/bt_config.conf",
        bt_config("Mia's Pixel 5", "3c:28:6d:11:22:33").as_bytes(),
    );
    let cal = sqlite(
        root,
        "user/0/com.android.providers.calendar/databases/calendar.db",
        CALENDAR_SQL,
    );
    sqlite(
        root,
        "user/0/com.google.android.providers.media.module/databases/external.db",
        MEDIA_R_SQL,
    );
    // broken copies
    let bytes = std::fs::read(&cal).unwrap();
    write(
        root,
        "copy/com.android.providers.calendar/databases/calendar.db",
        &bytes[..2000],
    );
    sqlite(
        root,
        "copy/com.android.providers.media/databases/external.db",
        "CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT, hash TEXT); INSERT INTO files VALUES (1, '/a.jpg', 'x');",
    );
    write(
        root,
        "copy/misc/wifi/WifiConfigStore.xml",
        &WIFI_Q.as_bytes()[..WIFI_Q.find("<NetworkStatus>").unwrap()],
    );
    let run = triage(&[("p", root, "Asia/Hong_Kong", Some("HK"))]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("p");
    no_secret(&all);

    // Wi-Fi, Android 10: the raw SSID (escaped as in the file), creator, random MAC, status
    let home = find(&all, "Saved Wi-Fi network Home&Garden");
    let v = values(home);
    for want in [
        "/misc/wifi/WifiConfigStore.xml",
        "Home&amp;Garden",
        "&quot;Home&amp;Garden&quot;WPA_PSK",
        "02",
        "android.uid.system:1000",
        "ae:51:9b:0c:44:e1",
        "e4:8d:8c:11:22:33",
        "14",
        "NETWORK_SELECTION_ENABLED",
        "1709371200000",
        "time=03-02 09:15:27.412",
    ] {
        assert!(v.contains(&want), "{want}: {v:?}");
    }
    assert_eq!(home.times.len(), 1);
    assert_eq!(home.times[0].encoding, TimeEncoding::UnixMillis);
    assert_eq!(v[home.times[0].fact], "1709371200000");
    assert!(
        home.interpretation
            .contains("a pre-shared key is stored (its value is not read)"),
        "{}",
        home.interpretation
    );
    assert!(home.interpretation.contains("02 = WPA_PSK"));
    assert!(home.interpretation.contains("has ever connected true"));
    let open = find(&all, "Saved Wi-Fi network Airport Free WiFi");
    assert!(values(open).contains(&"com.example.hotspotfinder"));
    assert!(open.interpretation.contains("no pre-shared key"));
    assert!(open.interpretation.contains("has ever connected false"));
    assert!(
        open.times.is_empty(),
        "ConnectChoiceTimeStamp -1 is no time"
    );
    // Wi-Fi, Android 12 apex: encrypted key, SAE, hidden
    let office = find(&all, "Saved Wi-Fi network Office-5G");
    let v = values(office);
    assert_eq!(v[0], "/misc/apexdata/com.android.wifi/WifiConfigStore.xml");
    for want in ["com.android.settings", "d2:6a:1f:30:7b:99", "4", "true"] {
        assert!(v.contains(&want), "{want}: {v:?}");
    }
    assert!(office.interpretation.contains("stored encrypted"));
    assert!(office.interpretation.contains("4 = SAE"));
    assert!(office.interpretation.contains("hidden true"));

    // Bluetooth: the adapter's name is the device's; paired devices with their times
    let adapter = find(&all, "Bluetooth adapter Mia's Pixel 5 (3c:28:6d:11:22:33)");
    assert_eq!(adapter.times[0].encoding, TimeEncoding::LocalText);
    assert!(values(adapter).contains(&"2024-01-05 08:12:44"));
    assert!(
        adapter
            .interpretation
            .contains("local keys stored, values not read: LE_LOCAL_KEY_IRK")
    );
    let device = run
        .entities("p")
        .into_iter()
        .find(|e| e.starts_with("device "))
        .expect("a device entity");
    let name =
        masf_graph::identifiers::normalize(masf_graph::IdType::DeviceName, "Mia's Pixel 5", None)
            .unwrap();
    assert!(device.contains(&format!("device_name={name}")), "{device}");
    let jbl = find(&all, "Bluetooth device JBL Flip 4 (00:1a:7d:da:71:13)");
    let v = values(jbl);
    for want in [
        "00:1a:7d:da:71:13",
        "JBL Flip 4",
        "2360324",
        "15",
        "1704442964",
    ] {
        assert!(v.contains(&want), "{want}: {v:?}");
    }
    assert_eq!(jbl.times[0].encoding, TimeEncoding::UnixSeconds);
    assert!(jbl.interpretation.contains("bonded (paired)"));
    assert!(jbl.interpretation.contains("(audio/video)"));
    let band = find(&all, "Bluetooth device Mi Smart Band 6 (f4:5c:89:aa:bb:cc)");
    assert!(band.interpretation.contains("LE_KEY_PENC"));

    // Calendar: the owner's Google account, attendees and organizers as persons
    let entities = run.entities("p");
    let owner = entities.iter().find(|e| e.starts_with("owner ")).unwrap();
    assert!(
        owner.contains("google_account=mia.chan.hk@gmail.com"),
        "{owner}"
    );
    for (context, ids) in [
        (
            "handle:bob.lee.trading@outlook.com ",
            &["email=bob.lee.trading@outlook.com", "display_name=bob lee"][..],
        ),
        (
            "handle:derek.wong.pm@gmail.com ",
            &["email=derek.wong.pm@gmail.com", "display_name=derek wong"][..],
        ),
        (
            "handle:carol.tan@yahoo.com.hk ",
            &["email=carol.tan@yahoo.com.hk"][..],
        ),
    ] {
        let e = entities
            .iter()
            .find(|e| e.starts_with(context))
            .unwrap_or_else(|| panic!("{context}: {entities:#?}"));
        for id in ids {
            assert!(e.contains(id), "{id}: {e}");
        }
    }
    assert!(
        !entities
            .iter()
            .any(|e| e.contains("mia.chan.hk@gmail.com") && !e.starts_with("owner ")),
        "the owner's own address is no other person: {entities:#?}"
    );
    assert!(
        !entities.iter().any(|e| e.contains("calendar.google.com")),
        "a holiday calendar is no person"
    );
    let handover = find(&all, "Calendar event Handover at pier");
    let v = values(handover);
    for want in [
        "Handover at pier",
        "Central Pier 7, Hong Kong",
        "bring the cash\\nand the second phone",
        "1709712000000",
        "1709715600000",
        "bob.lee.trading@outlook.com",
        "Bob Lee",
        "mia.chan.hk@gmail.com",
    ] {
        assert!(v.contains(&want), "{want}: {v:?}");
    }
    let marks: Vec<(&str, &str)> = handover
        .times
        .iter()
        .map(|t| (v[t.fact], t.description.as_str()))
        .collect();
    assert_eq!(
        marks,
        [
            ("1709712000000", "Calendar event starts"),
            ("1709715600000", "Calendar event ends")
        ]
    );
    assert!(
        handover
            .interpretation
            .contains("Bob Lee <bob.lee.trading@outlook.com> (tentative)")
    );
    let sync = find(&all, "Calendar event Weekly sync");
    assert!(values(sync).contains(&"FREQ=WEEKLY;BYDAY=FR"));
    assert!(
        sync.interpretation
            .contains("carol.tan@yahoo.com.hk> (declined)")
    );
    let rota = find(&all, "Calendar Team rota (mia.chan.hk@gmail.com)");
    assert!(
        rota.interpretation
            .contains("owned by derek.wong.pm@gmail.com")
    );
    let holidays = find(
        &all,
        "Calendar Holidays in Hong Kong (mia.chan.hk@gmail.com)",
    );
    assert!(
        holidays
            .interpretation
            .contains("a group or public calendar")
    );
    assert!(
        find(&all, "Calendar event Ching Ming Festival")
            .interpretation
            .contains("all day")
    );

    // Media store, Android 11: owner app, relative path, download flag; no location kept
    let wa = find(&all, "Photo IMG-20240305-WA0003.jpg");
    let v = values(wa);
    for want in [
        "/storage/emulated/0/Pictures/WhatsApp/IMG-20240305-WA0003.jpg",
        "com.whatsapp",
        "Pictures/WhatsApp/",
        "183422",
        "1709639990000",
        "1709640000",
    ] {
        assert!(v.contains(&want), "{want}: {v:?}");
    }
    assert!(!wa.interpretation.contains("latitude"));
    let taken: Vec<_> = wa
        .times
        .iter()
        .map(|t| (v[t.fact], t.encoding, t.description.as_str()))
        .collect();
    assert!(taken.contains(&("1709639990000", TimeEncoding::UnixMillis, "Photo taken")));
    assert!(taken.contains(&(
        "1709640000",
        TimeEncoding::UnixSeconds,
        "Media added to the media store"
    )));
    let receipt = find(&all, "Photo receipt.png");
    assert!(receipt.interpretation.contains("downloaded 1"));

    // The broken copies are noted; nothing is recorded from them
    let notes: Vec<String> = run
        .unparsed("p")
        .into_iter()
        .map(|u| format!("{}: {}", u.artefact, u.reason))
        .collect();
    assert!(
        notes.iter().any(|n| n.starts_with(
            "/copy/com.android.providers.calendar/databases/calendar.db: sqlite_tables"
        )),
        "{notes:#?}"
    );
    assert!(
        notes.iter().any(|n| n
            == "/copy/com.android.providers.media/databases/external.db: unexpected schema: files has no column _id, _data, mime_type"),
        "{notes:#?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("/copy/misc/wifi/WifiConfigStore.xml: ")
                && n.contains("cut short")),
        "{notes:#?}"
    );
    assert_eq!(notes.len(), 3, "{notes:#?}");
    assert!(
        all.iter().all(|p| !p
            .verified_facts
            .iter()
            .any(|f| f.value.starts_with("/copy/"))),
        "nothing from the broken copies"
    );

    // the catalogue's detectors find the reads of the four artefacts
    let android = masf_plugins::android::AndroidPlugin;
    let args: Vec<String> = run.outputs("p").into_iter().map(|(_, a, _)| a).collect();
    for entry in [
        "WifiConfigStore.xml",
        "bt_config.conf",
        "calendar.db",
        "media store external.db",
    ] {
        let e = android
            .expected_artefacts()
            .into_iter()
            .find(|e| e.name == entry)
            .unwrap_or_else(|| panic!("{entry} in the catalogue"));
        assert!(
            args.iter()
                .any(|a| e.detector.iter().any(|d| a.contains(d.as_str()))),
            "{entry}: {:?}",
            e.detector
        );
    }
}

/// An Android 7–9 data tree: `wpa_supplicant.conf`, `bt_config.conf` in `/data/misc/bluedroid`,
/// the media provider's Android 9 `external.db` with the scanner's latitude and longitude.
#[test]
fn android_9_wpa_supplicant_bluedroid_and_media_with_location() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    // wpa_supplicant's own `wpa_config_write` layout, with Android's `id_str`
    write(
        root,
        "misc/wifi/wpa_supplicant.conf",
        b"ctrl_interface=wlan0\nupdate_config=1\ndevice_name=mia_phone\n\nnetwork={\n\tssid=\"OldCafe\"\n\tpsk=\"OldCafePass\"\n\tkey_mgmt=WPA-PSK\n\tpriority=3\n\tid_str=\"%7B%22creatorUid%22%3A%221000%22%7D\"\n}\n\nnetwork={\n\tssid=\"HiddenLab\"\n\tscan_ssid=1\n\tkey_mgmt=NONE\n\tpriority=1\n}\n",
    );
    write(
        root,
        "misc/bluedroid/bt_config.conf",
        bt_config("Galaxy S8 of Mia", "5c:51:81:aa:bb:01").as_bytes(),
    );
    sqlite(
        root,
        "user/0/com.android.providers.media/databases/external.db",
        MEDIA_P_SQL,
    );
    let run = triage(&[("p", root, "Asia/Hong_Kong", Some("HK"))]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert!(run.unparsed("p").is_empty(), "{:?}", run.unparsed("p"));
    let all = run.all_phenomena("p");
    no_secret(&all);
    let cafe = find(&all, "Saved Wi-Fi network OldCafe");
    assert!(values(cafe).contains(&"WPA-PSK"));
    assert!(cafe.interpretation.contains("stored, values not read: psk"));
    let lab = find(&all, "Saved Wi-Fi network HiddenLab");
    assert!(lab.interpretation.contains("hidden (scan_ssid) 1"));
    find(
        &all,
        "Bluetooth adapter Galaxy S8 of Mia (5c:51:81:aa:bb:01)",
    );
    find(&all, "Bluetooth device JBL Flip 4 (00:1a:7d:da:71:13)");
    let photo = find(&all, "Photo IMG_20190305_141502.jpg");
    let v = values(photo);
    for want in ["22.2855", "114.1577", "1551766502000", "4032", "Camera"] {
        assert!(v.contains(&want), "{want}: {v:?}");
    }
    assert!(
        photo
            .interpretation
            .contains("latitude 22.2855, longitude 114.1577")
    );
    let video = find(&all, "Video VID_20190306_101010.mp4");
    assert!(
        video
            .times
            .iter()
            .any(|t| t.description == "Video recorded" && t.encoding == TimeEncoding::UnixMillis)
    );
    assert!(
        !all.iter()
            .any(|p| p.title.contains("invoice.pdf") && p.category == "media"),
        "a document row of files is no photo"
    );
}

/// Android 11's `settings_ssaid.xml` as AOSP `SettingsState.writeStateAsyncLocked` writes it
/// (`/data/system/users/0/`, FastXmlSerializer): the user's key, then one SSAID per app uid.
const SSAID_11: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<settings version="-1">
  <setting id="0" name="userkey" value="1234567890ABCDEF1234567890ABCDEF1234567890ABCDEF1234567890ABCDEF" package="android" defaultSysSet="true" />
  <setting id="3" name="10092" value="8c5a0e1f2b3d4e5f" package="com.whatsapp" defaultValue="8c5a0e1f2b3d4e5f" defaultSysSet="false" tag="null" />
  <setting id="4" name="10134" value="1f2e3d4c5b6a7988" package="org.telegram.messenger" defaultValue="1f2e3d4c5b6a7988" defaultSysSet="false" tag="null" />
  <setting id="5" name="10150" value="null" package="com.example.empty" defaultSysSet="false" tag="null" />
</settings>
"#;

/// `settings_secure.xml` (Android 11): Bluetooth name and address.
const SECURE_11: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<settings version="191">
  <setting id="61" name="bluetooth_name" value="Pat Pixel 5" package="com.android.bluetooth" defaultValue="Pat Pixel 5" defaultSysSet="true" />
  <setting id="62" name="bluetooth_address" value="3C:28:6D:11:22:33" package="com.android.bluetooth" defaultSysSet="true" />
  <setting id="70" name="location_mode" value="3" package="android" defaultSysSet="true" />
</settings>
"#;

/// `settings_global.xml` (Android 11): the name the user gave the phone.
const GLOBAL_11: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<settings version="198">
  <setting id="110" name="device_name" value="Pat's Pixel" package="com.android.settings" defaultValue="Pixel 5" defaultSysSet="true" />
</settings>
"#;

/// Android 7's `settings_secure.xml`: the one Android id of the user, before SSAIDs.
const SECURE_7: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<settings version="131">
  <setting id="45" name="android_id" value="a3f09c22d4e5b617" package="android" />
  <setting id="46" name="bluetooth_name" value="Galaxy S7" package="com.android.bluetooth" />
</settings>
"#;

/// The settings provider's files in three generations: Android 11 (plain XML), the same files
/// as Android 12+ writes them (ABX, encoded by the android-abx crate's encoder — checked by its
/// author against AOSP's `BinaryXmlSerializer`), Android 7 (plain, one Android id). Both
/// encodings give the same phenomena and identities; the SSAID key is never copied; a
/// truncated ABX file and a file of another shape are noted unparsed with why.
#[test]
fn settings_provider_files_plain_and_abx_give_android_ids_and_device_names() {
    let tmp = tempfile::tempdir().unwrap();
    let users = "data/system/users/0";
    let write = |root: &Path, name: &str, bytes: &[u8]| {
        let dir = root.join(users);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), bytes).unwrap();
    };
    let (plain, abx, old, broken) = (
        tmp.path().join("a11"),
        tmp.path().join("a12"),
        tmp.path().join("a7"),
        tmp.path().join("broken"),
    );
    for (name, xml) in [
        ("settings_ssaid.xml", SSAID_11),
        ("settings_secure.xml", SECURE_11),
        ("settings_global.xml", GLOBAL_11),
    ] {
        write(&plain, name, xml.as_bytes());
        let encoded = android_abx::xml_to_abx(xml).unwrap();
        assert!(encoded.starts_with(b"ABX\0"));
        write(&abx, name, &encoded);
    }
    write(&old, "settings_secure.xml", SECURE_7.as_bytes());
    let encoded = android_abx::xml_to_abx(SSAID_11).unwrap();
    write(&broken, "settings_ssaid.xml", &encoded[..encoded.len() / 2]);
    write(
        &broken,
        "settings_global.xml",
        b"<map><string name=\"device_name\">x</string></map>",
    );

    let run = triage(&[
        ("a11", &plain, "UTC", Some("US")),
        ("a12", &abx, "UTC", Some("US")),
        ("a7", &old, "UTC", Some("KR")),
        ("broken", &broken, "UTC", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let device = |src: &str| -> String {
        run.entities(src)
            .into_iter()
            .find(|e| e.starts_with("device "))
            .unwrap_or_else(|| panic!("{src}: {:#?}", run.entities(src)))
    };
    for src in ["a11", "a12"] {
        assert!(
            run.unparsed(src).is_empty(),
            "{src}: {:#?}",
            run.unparsed(src)
        );
        let listed = run.phenomena(src);
        for t in [
            "device | SSAID key of user 0 (present)",
            "device | Android id of com.whatsapp (user 0)",
            "device | Android id of org.telegram.messenger (user 0)",
            "device | Device name Pat Pixel 5 (bluetooth_name)",
            "device | Bluetooth address 3C:28:6D:11:22:33",
            "device | Device name Pat's Pixel (device_name)",
        ] {
            assert!(listed.iter().any(|x| x == t), "{src} {t}: {listed:#?}");
        }
        // "null" is no id
        assert!(
            !listed.iter().any(|x| x.contains("com.example.empty")),
            "{listed:#?}"
        );
        let d = device(src);
        for v in [
            "android_id=8c5a0e1f2b3d4e5f",
            "android_id=1f2e3d4c5b6a7988",
            "device_name=pat pixel 5",
            "device_name=pat's pixel",
        ] {
            assert!(d.contains(v), "{src} {v}: {d}");
        }
        // the SSAID key is in the evidence, never in a phenomenon
        for p in run.all_phenomena(src) {
            for f in &p.verified_facts {
                assert!(!f.value.contains("1234567890ABCDEF"), "{src}: {f:?}");
            }
        }
    }
    // the ABX files were decoded, and said so
    let formats: Vec<String> = run
        .outputs("a12")
        .into_iter()
        .filter(|(t, _, _)| t == "read_xml")
        .map(|(_, _, o)| o.lines().next().unwrap_or_default().to_string())
        .collect();
    assert_eq!(formats, vec!["# format: abx (decoded)"; 3]);

    let d7 = device("a7");
    assert!(d7.contains("android_id=a3f09c22d4e5b617"), "{d7}");
    assert!(d7.contains("device_name=galaxy s7"), "{d7}");
    assert!(
        run.phenomena("a7")
            .iter()
            .any(|x| x == "device | Android id (user 0)"),
        "{:#?}",
        run.phenomena("a7")
    );

    let unparsed = run.unparsed("broken");
    for (file, why) in [
        (
            "settings_ssaid.xml",
            "not a readable Android Binary XML file",
        ),
        (
            "settings_global.xml",
            "its root element is <map>, not <settings>",
        ),
    ] {
        assert!(
            unparsed
                .iter()
                .any(|u| u.artefact.contains(file) && u.reason.contains(why)),
            "{file}: {unparsed:#?}"
        );
    }
}

/// A `packages.xml` as Android 11 writes it (plain XML: the `<version>` and `<permissions>`
/// headers, packages with their signatures and permissions, a shared user), hand-typed from
/// AOSP's `Settings.writePackageLPr` layout.
const PACKAGES_11: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<packages>
    <version sdkVersion="30" databaseVersion="3" fingerprint="google/redfin/redfin:11/RQ3A.211001.001/7641976:user/release-keys" />
    <permissions>
        <item name="android.permission.INTERNET" package="android" protection="0" />
    </permissions>
    <package name="com.wallet.crypto.trustapp" codePath="/data/app/~~Qm9vaw==/com.wallet.crypto.trustapp-T3Jhbmdl==" nativeLibraryPath="/data/app/~~Qm9vaw==/com.wallet.crypto.trustapp-T3Jhbmdl==/lib" primaryCpuAbi="arm64-v8a" publicFlags="810073924" privateFlags="0" ft="18c8e2b1a50" it="18c8e2b1c2f" ut="18c9a0f3b10" version="1095" userId="10234" installer="com.android.vending" installInitiator="com.android.vending">
        <sigs count="1" schemeVersion="3">
            <cert index="0" />
        </sigs>
        <perms>
            <item name="android.permission.INTERNET" granted="true" flags="0" />
        </perms>
    </package>
    <package name="org.example.otcdesk" codePath="/data/app/~~U2lkZQ==/org.example.otcdesk-TG9hZA==" primaryCpuAbi="arm64-v8a" publicFlags="810073924" privateFlags="0" ft="18c8f0aa000" it="18c8f0aa3e8" ut="18c8f0aa3e8" version="7" userId="10240" installInitiator="com.google.android.packageinstaller">
        <sigs count="1" schemeVersion="2">
            <cert index="1" />
        </sigs>
    </package>
    <package name="com.android.chrome" codePath="/product/app/Chrome" primaryCpuAbi="arm64-v8a" publicFlags="944291397" privateFlags="0" ft="11e8f7d4c00" it="11e8f7d4c00" ut="11e8f7d4c00" version="447211456" userId="10133" isOrphaned="true">
        <sigs count="1" schemeVersion="3">
            <cert index="2" />
        </sigs>
    </package>
    <shared-user name="android.uid.system" userId="1000">
        <sigs count="1" schemeVersion="3">
            <cert index="3" />
        </sigs>
    </shared-user>
</packages>
"#;

/// `packages.xml` plain (Android 11) and the same as Android 12+ writes it (ABX, by the
/// android-abx crate's encoder): each app on the data partition with its first-install and
/// update times (hexadecimal Unix ms, checked against Python's int(…, 16)), version, uid and
/// installer; the system image's packages counted; a truncated ABX copy and a file of another
/// root noted.
#[test]
fn packages_xml_plain_and_abx_give_install_times_and_installers() {
    let tmp = tempfile::tempdir().unwrap();
    let write = |root: &Path, bytes: &[u8]| {
        let dir = root.join("data/system");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
        std::fs::write(dir.join("packages.xml"), bytes).unwrap();
    };
    let (plain, abx, cut, other) = (
        tmp.path().join("a11"),
        tmp.path().join("a12"),
        tmp.path().join("cut"),
        tmp.path().join("other"),
    );
    write(&plain, PACKAGES_11.as_bytes());
    let encoded = android_abx::xml_to_abx(PACKAGES_11).unwrap();
    write(&abx, &encoded);
    write(&cut, &encoded[..encoded.len() / 2]);
    write(&other, b"<map><string name=\"x\">y</string></map>");
    let run = triage(&[
        ("a11", &plain, "UTC", Some("US")),
        ("a12", &abx, "UTC", Some("US")),
        ("cut", &cut, "UTC", Some("US")),
        ("other", &other, "UTC", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let hex_ms = |h: &str| -> String {
        let out = std::process::Command::new("python3")
            .arg("-c")
            .arg(format!("print(int('{h}', 16))"))
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    for src in ["a11", "a12"] {
        let all = run.all_phenomena(src);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let find = |t: &str| {
            all.iter()
                .find(|p| p.title == t)
                .unwrap_or_else(|| panic!("{src}: {t}"))
        };
        let trust = find("App com.wallet.crypto.trustapp installed");
        for v in [
            "18c8e2b1c2f",
            "18c9a0f3b10",
            "1095",
            "10234",
            "com.android.vending",
        ] {
            assert!(trust.verified_facts.iter().any(|f| f.value == v), "{v}");
        }
        assert_eq!(trust.times.len(), 2);
        assert!(
            trust
                .times
                .iter()
                .all(|t| t.encoding == masf_graph::TimeEncoding::UnixMillisHex)
        );
        assert_eq!(hex_ms("18c8e2b1c2f"), "1703192239151");
        let side = find("App org.example.otcdesk installed");
        assert_eq!(side.times.len(), 1, "first install and update are the same");
        assert!(
            side.interpretation
                .contains("no recorded installer (sideloaded or preinstalled) at the request of com.google.android.packageinstaller")
        );
        find("1 packages of the system image");
        assert!(
            !all.iter()
                .any(|p| p.title == "App com.android.chrome installed"),
            "the system image's Chrome is counted, not listed"
        );
        assert!(
            run.unparsed(src).is_empty(),
            "{src}: {:#?}",
            run.unparsed(src)
        );
    }
    for (src, why) in [("cut", "read_xml"), ("other", "its root element is <map>")] {
        let notes = run.unparsed(src);
        assert!(
            notes
                .iter()
                .any(|u| u.artefact.ends_with("system/packages.xml") && u.reason.contains(why)),
            "{src}: {notes:#?}"
        );
    }
}

/// The numbers a user blocked (AOSP `blockednumbers.db`, built by the sqlite3 CLI from
/// BlockedNumberDatabaseHelper's statements) on two phones — the second's rows without the
/// provider's E.164 form: every row found as the CLI reads it, each number observed as a
/// person's; a database of another layout noted.
#[test]
fn blocked_numbers_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let db = |root: &Path| {
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
        root.join("data/user_de/0/com.android.providers.blockednumber/databases/blockednumbers.db")
    };
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    let (db_one, db_two) = (db(&one), db(&two));
    crate::android_support::sqlite_fixture(
        &db_one,
        "blockednumbers/blockednumbers.sql",
        "SELECT 1;",
    );
    crate::android_support::sqlite_fixture(
        &db_two,
        "blockednumbers/blockednumbers.sql",
        "UPDATE blocked SET e164_number = NULL;",
    );
    let foreign =
        two.join("data/user_de/10/com.android.providers.blockednumber/databases/blockednumbers.db");
    crate::android_support::sqlite_fixture(
        &foreign,
        "blockednumbers/blockednumbers.sql",
        "CREATE TABLE b2 AS SELECT _id, e164_number FROM blocked; DROP TABLE blocked; ALTER TABLE b2 RENAME TO blocked;",
    );
    let run = triage(&[
        ("one", &one, "Asia/Hong_Kong", Some("HK")),
        ("two", &two, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (src, file) in [("one", &db_one), ("two", &db_two)] {
        let all = run.all_phenomena(src);
        for row in
            crate::browsers::sqlite3(file, "SELECT original_number, e164_number FROM blocked")
        {
            let p = all
                .iter()
                .find(|p| p.title == format!("Number blocked: {}", row[0]))
                .unwrap_or_else(|| panic!("{src}: {row:?}"));
            assert!(p.warnings.is_empty(), "{:#?}", p.warnings);
            for v in &row {
                assert!(
                    v.is_empty() || p.verified_facts.iter().any(|f| &f.value == v),
                    "{v}"
                );
            }
        }
        let ids = run.identifiers(src);
        for n in ["+85254321098", "+85261234567"] {
            assert!(
                ids.contains(&("phone".to_string(), n.to_string())),
                "{src}: {ids:?}"
            );
        }
        assert!(!ids.iter().any(|(_, v)| v.contains("PROMO")));
    }
    let notes = run.unparsed("two");
    assert!(
        notes.iter().any(|u| u.artefact.ends_with(
            "user_de/10/com.android.providers.blockednumber/databases/blockednumbers.db"
        ) && u.reason.contains("table blocked lacks original_number")),
        "{notes:#?}"
    );
}

/// The users' files as Android 11 writes them (plain XML: the primary user with its name, a
/// work profile, a second full user) and the same as Android 12+ writes them (ABX, by the
/// android-abx crate's encoder): each user with its name, type, created and last-logged-in
/// times; names of full users only become display names; a truncated ABX copy is noted.
#[test]
fn android_users_plain_and_abx() {
    const USER_0: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<user id="0" serialNumber="0" flags="3091" type="android.os.usertype.full.SYSTEM" created="0" lastLoggedIn="1714600000000" lastLoggedInFingerprint="google/redfin/redfin:11/RQ3A.211001.001/7641976:user/release-keys" profileBadge="0">
    <restrictions />
    <device_policy_local_restrictions />
    <ignorePrepareStorageErrors>false</ignorePrepareStorageErrors>
    <name>Man Ho</name>
</user>
"#;
    const USER_10: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<user id="10" serialNumber="10" flags="4144" type="android.os.usertype.profile.MANAGED" created="1714000000000" lastLoggedIn="1714500000000" profileGroupId="0" profileBadge="0">
    <restrictions />
    <name>Work profile</name>
</user>
"#;
    const USER_11: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<user id="11" serialNumber="11" flags="1024" type="android.os.usertype.full.SECONDARY" created="1714100000000" lastLoggedIn="1714550000000" profileBadge="0">
    <restrictions />
    <name>Kwok</name>
</user>
"#;
    let tmp = tempfile::tempdir().unwrap();
    let (plain, abx) = (tmp.path().join("a11"), tmp.path().join("a12"));
    for (root, encode) in [(&plain, false), (&abx, true)] {
        let dir = root.join("data/system/users");
        std::fs::create_dir_all(dir.join("0")).unwrap();
        for (name, xml) in [("0.xml", USER_0), ("10.xml", USER_10), ("11.xml", USER_11)] {
            let bytes = if encode {
                android_abx::xml_to_abx(xml).unwrap()
            } else {
                xml.as_bytes().to_vec()
            };
            std::fs::write(dir.join(name), bytes).unwrap();
        }
    }
    let cut = android_abx::xml_to_abx(USER_11).unwrap();
    std::fs::write(abx.join("data/system/users/12.xml"), &cut[..cut.len() / 2]).unwrap();
    let run = triage(&[
        ("a11", &plain, "UTC", Some("HK")),
        ("a12", &abx, "UTC", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for src in ["a11", "a12"] {
        let all = run.all_phenomena(src);
        let find = |t: &str| {
            all.iter()
                .find(|p| p.title == t)
                .unwrap_or_else(|| panic!("{src}: {t}"))
        };
        let owner = find("Android user 0: Man Ho");
        assert!(owner.warnings.is_empty(), "{:#?}", owner.warnings);
        assert_eq!(owner.times.len(), 1, "created 0 is not a time");
        assert!(
            owner
                .verified_facts
                .iter()
                .any(|f| f.value == "1714600000000")
        );
        let work = find("Android user 10: Work profile");
        assert_eq!(work.times.len(), 2);
        assert!(
            work.interpretation
                .contains("android.os.usertype.profile.MANAGED")
        );
        find("Android user 11: Kwok");
        let entities = run.entities(src);
        assert!(
            entities
                .iter()
                .any(|e| e.starts_with("owner [") && e.contains("display_name=man ho")),
            "{src}: {entities:#?}"
        );
        assert!(
            entities
                .iter()
                .any(|e| e.starts_with("android-user:11 [Person] Kwok:"))
        );
        assert!(!entities.iter().any(|e| e.contains("work profile")));
    }
    assert!(
        run.unparsed("a12")
            .iter()
            .any(|u| u.artefact.ends_with("system/users/12.xml")),
        "{:#?}",
        run.unparsed("a12")
    );
}

/// Persisted recent tasks as Android 11 writes them (plain XML, `TaskRecord.saveToXml`'s
/// attributes, hand-typed) and the same as Android 12+ writes them (ABX, by the android-abx
/// crate's encoder): each task with its app, activity, caller and times; a task file of another
/// root and a truncated ABX copy noted.
#[test]
fn recent_tasks_plain_and_abx() {
    const TASK: &str = r#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<task task_id="187" real_activity="com.whatsapp/.Main" real_activity_suspended="false" affinity="com.whatsapp" root_has_reset="true" auto_remove_recents="false" asked_compat_mode="false" user_id="0" user_setup_complete="true" effective_uid="10231" task_type="1" first_active_time="1714600000000" last_active_time="1714600900000" last_time_moved="1714600950000" never_relinquish_identity="true" task_description_color="ff075e54" task_affiliation="187" prev_affiliation="-1" next_affiliation="-1" calling_uid="10142" calling_package="com.google.android.apps.nexuslauncher" supports_picture_in_picture="false" resize_mode="2" min_width="-1" min_height="-1" persist_task_version="1">
    <intent action="android.intent.action.MAIN" component="com.whatsapp/.Main" flags="10200000">
        <categories category="android.intent.category.LAUNCHER" />
    </intent>
</task>
"#;
    let tmp = tempfile::tempdir().unwrap();
    let (plain, abx) = (tmp.path().join("a11"), tmp.path().join("a12"));
    for (root, bytes) in [
        (&plain, TASK.as_bytes().to_vec()),
        (&abx, android_abx::xml_to_abx(TASK).unwrap()),
    ] {
        let dir = root.join("data/system_ce/0/recent_tasks");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
        std::fs::write(dir.join("187_task.xml"), bytes).unwrap();
    }
    let cut = android_abx::xml_to_abx(TASK).unwrap();
    let dir = abx.join("data/system_ce/0/recent_tasks");
    std::fs::write(dir.join("188_task.xml"), &cut[..cut.len() / 2]).unwrap();
    std::fs::write(dir.join("189_task.xml"), b"<map />").unwrap();
    let run = triage(&[
        ("a11", &plain, "UTC", Some("HK")),
        ("a12", &abx, "UTC", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for src in ["a11", "a12"] {
        let all = run.all_phenomena(src);
        let p = all
            .iter()
            .find(|p| p.title == "Recent task 187: com.whatsapp")
            .unwrap_or_else(|| panic!("{src}"));
        assert!(p.warnings.is_empty(), "{:#?}", p.warnings);
        for v in [
            "com.whatsapp/.Main",
            "com.google.android.apps.nexuslauncher",
            "10231",
            "1714600000000",
            "1714600900000",
            "1714600950000",
        ] {
            assert!(p.verified_facts.iter().any(|f| f.value == v), "{src}: {v}");
        }
        assert_eq!(p.times.len(), 3);
    }
    let notes = run.unparsed("a12");
    for (file, why) in [
        ("188_task.xml", ""),
        ("189_task.xml", "its root element is <map>"),
    ] {
        assert!(
            notes
                .iter()
                .any(|u| u.artefact.ends_with(file) && u.reason.contains(why)),
            "{file}: {notes:#?}"
        );
    }
}
