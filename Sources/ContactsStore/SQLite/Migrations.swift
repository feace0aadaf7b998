/// One step of the schema: the SQL that makes it, and where rows must be rewritten (their
/// JSON or files, which SQL cannot reach), the Swift that does it in the same transaction.
struct Migration: Sendable {
    let version: Int
    let sql: String
    let rewrite: (@Sendable (Database, PhotoStore) throws -> Void)?

    init(_ version: Int, _ sql: String, rewrite: (@Sendable (Database, PhotoStore) throws -> Void)? = nil) {
        self.version = version
        self.sql = sql
        self.rewrite = rewrite
    }
}

/// The schema, as numbered migrations recorded in `PRAGMA user_version`.
enum Migrations {
    static let all: [Migration] = [
        // 1: contacts with their search summary, groups and memberships.
        Migration(
            1,
            """
            CREATE TABLE contacts (
                rowid INTEGER PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                uid TEXT NOT NULL UNIQUE,
                revision INTEGER NOT NULL,
                name TEXT NOT NULL,
                sort_key TEXT NOT NULL,
                favorite INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                body TEXT NOT NULL,
                search TEXT NOT NULL
            );
            CREATE INDEX contacts_by_sort_key ON contacts(sort_key, name, id);
            CREATE INDEX contacts_by_favorite ON contacts(favorite, sort_key) WHERE favorite = 1;
            CREATE INDEX contacts_by_created ON contacts(created_at);
            CREATE INDEX contacts_by_updated ON contacts(updated_at);
            CREATE TABLE groups (
                rowid INTEGER PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                name_key TEXT NOT NULL UNIQUE,
                sort_key TEXT NOT NULL,
                created_at INTEGER NOT NULL
            );
            CREATE TABLE memberships (
                group_rowid INTEGER NOT NULL REFERENCES groups(rowid) ON DELETE CASCADE,
                contact_rowid INTEGER NOT NULL REFERENCES contacts(rowid) ON DELETE CASCADE,
                PRIMARY KEY (group_rowid, contact_rowid)
            ) WITHOUT ROWID;
            CREATE INDEX memberships_by_contact ON memberships(contact_rowid);
            """
        ),
        // 2: the vCard properties a contact arrived with, kept apart so that lists never read them.
        Migration(
            2,
            """
            ALTER TABLE contacts ADD COLUMN vcard TEXT;
            """
        ),
        // 3: the photo each contact refers to, so that a photo nobody refers to can be found.
        // (ContactStore.adoptInlinePhotos then moves photos kept inside cards to the photo files.)
        Migration(
            3,
            """
            ALTER TABLE contacts ADD COLUMN photo_hash TEXT;
            CREATE INDEX contacts_by_photo ON contacts(photo_hash) WHERE photo_hash IS NOT NULL;
            """,
            rewrite: { db, photos in try ContactStore.adoptInlinePhotos(db, photos: photos) }
        ),
        // 4: no index by name. The search index in memory holds every contact in name order
        // and answers lists as well as searches; the SQL index cost every insert a descent at
        // a random place, and a large import the remaking of it over the whole table.
        Migration(
            4,
            """
            DROP INDEX IF EXISTS contacts_by_sort_key;
            """
        ),
        // 5: the trash. A deleted contact keeps its row here, whole, with the names of its
        // groups, until it comes back or is purged; its photo stays while it is here.
        Migration(
            5,
            """
            CREATE TABLE trash (
                rowid INTEGER PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                uid TEXT NOT NULL,
                revision INTEGER NOT NULL,
                name TEXT NOT NULL,
                sort_key TEXT NOT NULL,
                favorite INTEGER NOT NULL,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                body TEXT NOT NULL,
                search TEXT NOT NULL,
                vcard TEXT,
                photo_hash TEXT,
                groups TEXT,
                deleted_at INTEGER NOT NULL,
                origin TEXT NOT NULL
            );
            CREATE INDEX trash_by_deleted ON trash(deleted_at);
            CREATE INDEX trash_by_photo ON trash(photo_hash) WHERE photo_hash IS NOT NULL;
            """
        ),
        // 6: history. Each write transaction is an operation (when, by what); each change of a
        // contact or group within it keeps the state it replaced, so that it can be looked at
        // or brought back. A contact's making is its row's `created_operation` (a history row
        // for each card of a large import cost it a tenth and more). A store from before starts
        // with an empty history.
        Migration(
            6,
            """
            ALTER TABLE contacts ADD COLUMN created_operation INTEGER;
            ALTER TABLE trash ADD COLUMN created_operation INTEGER;
            CREATE TABLE operations (
                id INTEGER PRIMARY KEY,
                at INTEGER NOT NULL,
                origin TEXT NOT NULL,
                contacts INTEGER NOT NULL DEFAULT 0,
                groups INTEGER NOT NULL DEFAULT 0,
                summary TEXT NOT NULL DEFAULT ''
            );
            CREATE TABLE history (
                rowid INTEGER PRIMARY KEY,
                operation INTEGER NOT NULL,
                kind INTEGER NOT NULL,
                item TEXT NOT NULL,
                change TEXT NOT NULL,
                revision INTEGER NOT NULL,
                at INTEGER NOT NULL,
                photo_hash TEXT,
                before TEXT
            );
            CREATE INDEX history_by_item ON history(item, rowid);
            CREATE INDEX history_by_operation ON history(operation);
            CREATE INDEX history_by_photo ON history(photo_hash) WHERE photo_hash IS NOT NULL;
            """
        ),
        // 7: a change's time is its operation's; the row need not repeat it (history rows are
        // many and small: what a change replaced, not a copy of the contact).
        Migration(
            7,
            """
            ALTER TABLE history DROP COLUMN at;
            """
        ),
        // 8: sync accounts. An account is one address book on a server (never its password:
        // `settings` names the command that prints it). Each card the account shares with the
        // store is an item: its href, entity tag, the card as last synced (the base of a
        // three-way merge) and the contact's revision then; a contact belongs to the account
        // whose item names it. An intent is a write sent (or about to be) whose answer has not
        // been seen: the next sync checks it before it sends anything again.
        Migration(
            8,
            """
            CREATE TABLE accounts (
                name TEXT PRIMARY KEY,
                url TEXT NOT NULL,
                book_url TEXT NOT NULL,
                display_name TEXT,
                username TEXT,
                settings TEXT NOT NULL DEFAULT '{}',
                sync_token TEXT,
                last_success INTEGER,
                last_error TEXT,
                created_at INTEGER NOT NULL
            );
            CREATE TABLE sync_items (
                account TEXT NOT NULL REFERENCES accounts(name) ON DELETE CASCADE,
                href TEXT NOT NULL,
                contact_id TEXT,
                etag TEXT,
                card TEXT,
                synced_revision INTEGER,
                PRIMARY KEY (account, href)
            );
            CREATE INDEX sync_items_by_contact ON sync_items(contact_id);
            CREATE TABLE sync_intents (
                account TEXT NOT NULL REFERENCES accounts(name) ON DELETE CASCADE,
                href TEXT NOT NULL,
                contact_id TEXT,
                action TEXT NOT NULL,
                at INTEGER NOT NULL,
                PRIMARY KEY (account, href)
            );
            """
        ),
        // 9: a card whose contact was moved to another account or to this machine alone is
        // deleted from its server by the next sync, as asked (not held by the mass-deletion
        // guard); an account keeps what its last sync reported (held deletions, conflicts,
        // refused cards) for sync.status.
        Migration(
            9,
            """
            ALTER TABLE sync_items ADD COLUMN moved INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE accounts ADD COLUMN last_report TEXT;
            """
        ),
        // 10: an item may be one of the book's group cards (KIND:group, Apple's
        // X-ADDRESSBOOKSERVER-KIND), linked to the group it is here.
        Migration(
            10,
            """
            ALTER TABLE sync_items ADD COLUMN group_id TEXT;
            CREATE INDEX sync_items_groups ON sync_items(account) WHERE group_id IS NOT NULL;
            """
        ),
        // 11: phones as numbers. Each phone of a contact by its E.164 form (when it parses in
        // the default region) and the last digits it ends in, for caller ID; the region the
        // keys and the search text were made with is a setting (a store made before has
        // none: its phones are keyed when it is next opened).
        Migration(
            11,
            """
            CREATE TABLE phone_numbers (
                contact_rowid INTEGER NOT NULL,
                position INTEGER NOT NULL,
                e164 TEXT,
                tail TEXT,
                PRIMARY KEY (contact_rowid, position)
            ) WITHOUT ROWID;
            CREATE INDEX phone_numbers_e164 ON phone_numbers(e164) WHERE e164 IS NOT NULL;
            CREATE INDEX phone_numbers_tail ON phone_numbers(tail) WHERE tail IS NOT NULL;
            CREATE TRIGGER phone_numbers_of_deleted AFTER DELETE ON contacts BEGIN
                DELETE FROM phone_numbers WHERE contact_rowid = old.rowid;
            END;
            CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
            """
        ),
        // 12: the contacts a large import stored without phone keys, whose numbers are read
        // (keys and search text) in the background right after it.
        Migration(
            12,
            """
            CREATE TABLE phones_unkeyed (contact_rowid INTEGER PRIMARY KEY);
            CREATE TRIGGER phones_unkeyed_of_deleted AFTER DELETE ON contacts BEGIN
                DELETE FROM phones_unkeyed WHERE contact_rowid = old.rowid;
            END;
            """
        ),
        // 13: pairs of contacts a person said are different people (ids, the smaller first),
        // not proposed as duplicates again.
        Migration(
            13,
            """
            CREATE TABLE not_duplicates (first TEXT NOT NULL, second TEXT NOT NULL, PRIMARY KEY (first, second)) WITHOUT ROWID;
            """
        ),
        // 14: a write whose answer was lost is confirmed only by the server holding the very
        // card that was sent: the intent keeps its digest and the revision it was made from.
        Migration(
            14,
            """
            ALTER TABLE sync_intents ADD COLUMN digest TEXT;
            ALTER TABLE sync_intents ADD COLUMN revision INTEGER;
            """
        ),
        // 15: the name a CardDAV client PUT a card under (`UID.vcf`, its own choice), kept so
        // that the card stays at the address the client knows; other cards are `ID.vcf`.
        Migration(
            15,
            """
            CREATE TABLE served_names (contact_id TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;
            CREATE INDEX served_names_by_name ON served_names(name);
            """
        ),
        // 16: the store's commit sequence. Each write transaction takes the next state; a
        // contact keeps the state of its making and of its last change, and each removal of a
        // contact from a book (deleted, or moved to another) is kept with its state, so that
        // what changed since any state the log still reaches back to (`floor`) can be told:
        // CardDAV sync tokens, `changes.since`, views resumed. A book is an account's name,
        // or '' for the contacts no account has. Which book a contact is in is its sync
        // item's account: the triggers keep the removals as items come, go and move.
        Migration(
            16,
            """
            CREATE TABLE commit_state (id INTEGER PRIMARY KEY CHECK (id = 0), state INTEGER NOT NULL, floor INTEGER NOT NULL);
            INSERT INTO commit_state VALUES (0, 0, 0);
            ALTER TABLE contacts ADD COLUMN state INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE contacts ADD COLUMN created_state INTEGER NOT NULL DEFAULT 0;
            CREATE INDEX contacts_by_state ON contacts(state);
            CREATE TABLE removals (
                rowid INTEGER PRIMARY KEY,
                book TEXT NOT NULL,
                contact_id TEXT NOT NULL,
                name TEXT NOT NULL,
                state INTEGER NOT NULL,
                at INTEGER NOT NULL
            );
            CREATE UNIQUE INDEX removals_by_contact ON removals(book, contact_id);
            CREATE INDEX removals_by_state ON removals(state);
            CREATE INDEX removals_by_book ON removals(book, state);
            CREATE TRIGGER removals_of_items_gone AFTER DELETE ON sync_items WHEN old.contact_id IS NOT NULL BEGIN
                INSERT OR REPLACE INTO removals (book, contact_id, name, state, at)
                    SELECT old.account, old.contact_id, coalesce((SELECT name FROM served_names WHERE contact_id = old.contact_id),
                        old.contact_id || '.vcf'), state, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) FROM commit_state;
                UPDATE contacts SET state = (SELECT state FROM commit_state) WHERE id = old.contact_id;
            END;
            CREATE TRIGGER removals_of_items_moved AFTER UPDATE OF account, contact_id ON sync_items
                WHEN old.contact_id IS NOT NULL AND (new.contact_id IS NOT old.contact_id OR new.account <> old.account) BEGIN
                INSERT OR REPLACE INTO removals (book, contact_id, name, state, at)
                    SELECT old.account, old.contact_id, coalesce((SELECT name FROM served_names WHERE contact_id = old.contact_id),
                        old.contact_id || '.vcf'), state, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) FROM commit_state;
                UPDATE contacts SET state = (SELECT state FROM commit_state) WHERE id IN (old.contact_id, new.contact_id);
            END;
            CREATE TRIGGER removals_of_items_linked AFTER UPDATE OF contact_id ON sync_items
                WHEN old.contact_id IS NULL AND new.contact_id IS NOT NULL BEGIN
                INSERT OR REPLACE INTO removals (book, contact_id, name, state, at)
                    SELECT '', c.id, coalesce((SELECT name FROM served_names WHERE contact_id = c.id), c.id || '.vcf'), s.state,
                        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
                    FROM contacts c, commit_state s WHERE c.id = new.contact_id AND c.created_state < s.state;
                UPDATE contacts SET state = (SELECT state FROM commit_state) WHERE id = new.contact_id;
            END;
            CREATE TRIGGER removals_of_items_made AFTER INSERT ON sync_items WHEN new.contact_id IS NOT NULL BEGIN
                INSERT OR REPLACE INTO removals (book, contact_id, name, state, at)
                    SELECT '', c.id, coalesce((SELECT name FROM served_names WHERE contact_id = c.id), c.id || '.vcf'), s.state,
                        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
                    FROM contacts c, commit_state s WHERE c.id = new.contact_id AND c.created_state < s.state;
                UPDATE contacts SET state = (SELECT state FROM commit_state) WHERE id = new.contact_id;
            END;
            """
        ),
        // 17: groups a CardDAV client made as cards (KIND:group), served in the book of this
        // machine with the UID and name the client gave them. A served group keeps the state of
        // its last change (its name, a member come or gone: the triggers, for served groups
        // alone, so that an import's memberships cost nothing), and its removal is kept as a
        // contact's is.
        Migration(
            17,
            """
            ALTER TABLE groups ADD COLUMN state INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE removals ADD COLUMN group_card INTEGER NOT NULL DEFAULT 0;
            CREATE TABLE served_groups (group_rowid INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, uid TEXT NOT NULL);
            CREATE TRIGGER served_groups_member_added AFTER INSERT ON memberships
                WHEN new.group_rowid IN (SELECT group_rowid FROM served_groups) BEGIN
                UPDATE groups SET state = (SELECT state FROM commit_state) WHERE rowid = new.group_rowid;
            END;
            CREATE TRIGGER served_groups_member_gone AFTER DELETE ON memberships
                WHEN old.group_rowid IN (SELECT group_rowid FROM served_groups) BEGIN
                UPDATE groups SET state = (SELECT state FROM commit_state) WHERE rowid = old.group_rowid;
            END;
            CREATE TRIGGER served_groups_renamed AFTER UPDATE OF name ON groups
                WHEN new.rowid IN (SELECT group_rowid FROM served_groups) BEGIN
                UPDATE groups SET state = (SELECT state FROM commit_state) WHERE rowid = new.rowid;
            END;
            CREATE TRIGGER served_groups_gone AFTER DELETE ON groups
                WHEN old.rowid IN (SELECT group_rowid FROM served_groups) BEGIN
                INSERT OR REPLACE INTO removals (book, contact_id, name, state, at, group_card)
                    SELECT '', old.id, sg.name, cs.state, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), 1
                    FROM served_groups sg, commit_state cs WHERE sg.group_rowid = old.rowid;
                DELETE FROM served_groups WHERE group_rowid = old.rowid;
            END;
            """
        ),
        // 18: dates, related people, messaging addresses, the reading of the name, department,
        // pronouns and gender became fields; the contacts and trash whose cards hold them take
        // them from their cards (`ContactStore.adoptDeclaredFields`), which has no SQL part.
        Migration(18, "SELECT 1;", rewrite: { db, _ in try ContactStore.adoptDeclaredFields(db) }),
        // 19: the history rows recorded before 18 say nothing of those fields: the states
        // before them take theirs from their cards (`ContactStore.walkBack`). Rows from here on
        // record them.
        Migration(
            19,
            """
            INSERT OR IGNORE INTO settings (key, value)
                SELECT 'declaredFieldsFrom', CAST(coalesce(max(rowid), 0) + 1 AS TEXT) FROM history;
            """
        ),
        // 20: the iteration mark 々 folds as the character it repeats: the contacts and trash
        // whose text holds one are folded again (`ContactStore.refoldIterationMarks`).
        Migration(20, "SELECT 1;", rewrite: { db, _ in try ContactStore.refoldIterationMarks(db) }),
        // 21: a contact in the trash remembers the account it was in and its card's name
        // there, so that one brought back (undelete, undo) goes back to its account, even after
        // a sync has deleted its card on the server.
        Migration(
            21,
            """
            ALTER TABLE trash ADD COLUMN account TEXT;
            ALTER TABLE trash ADD COLUMN href TEXT;
            UPDATE trash SET (account, href) = (SELECT si.account, si.href FROM sync_items si WHERE si.contact_id = trash.id LIMIT 1);
            """
        ),
        // 22: an undo remembers the operation it undid (a redo, the undo it undid), so that
        // undo steps back through the operations, redo forward again, and an operation undone
        // together with its undo is no later change. A restore is an operation, with the file
        // that keeps the store it replaced, which its undo puts back.
        Migration(
            22,
            """
            ALTER TABLE operations ADD COLUMN undoes INTEGER;
            ALTER TABLE operations ADD COLUMN kept TEXT;
            CREATE INDEX operations_undone ON operations(undoes) WHERE undoes IS NOT NULL;
            """
        ),
        // 23: a birthday stored with CardBook's or Apple's year for "no year" (1604) is one
        // without a year (the card keeps what it said).
        Migration(
            23,
            """
            UPDATE contacts SET body = json_set(body, '$.birthday', '--' || substr(json_extract(body, '$.birthday'), 6))
                WHERE json_extract(body, '$.birthday') LIKE '1604-__-__';
            UPDATE trash SET body = json_set(body, '$.birthday', '--' || substr(json_extract(body, '$.birthday'), 6))
                WHERE json_extract(body, '$.birthday') LIKE '1604-__-__';
            """
        ),
        // 24: addresses from mail. A contact collected from mail says so in its body; the
        // column reads it there, so that every path that writes a body (the trash, undo, sync)
        // carries it unchanged. Each address of each contact is kept apart (lower-cased as
        // SQLite lower-cases: ASCII only), by triggers, so that an address is found on its
        // contact at once. Each address seen in mail keeps how often and when it was seen as
        // a sender and as a recipient of the user's own mail, with a score that fades with
        // time (its value at the last sighting); each message is counted once, by its id. The
        // index by flag and state finds a book's last change without reading every body (the
        // flag is read from the body: a harvest's thousands of collected contacts are the
        // latest states).
        Migration(
            24,
            """
            ALTER TABLE contacts ADD COLUMN collected INTEGER GENERATED ALWAYS AS (coalesce(json_extract(body, '$.collected'), 0)) VIRTUAL;
            ALTER TABLE trash ADD COLUMN collected INTEGER GENERATED ALWAYS AS (coalesce(json_extract(body, '$.collected'), 0)) VIRTUAL;
            CREATE INDEX contacts_collected ON contacts(collected, state);
            CREATE TABLE contact_emails (address TEXT NOT NULL, contact_rowid INTEGER NOT NULL, PRIMARY KEY (address, contact_rowid))
                WITHOUT ROWID;
            CREATE INDEX contact_emails_by_contact ON contact_emails(contact_rowid);
            INSERT OR IGNORE INTO contact_emails (address, contact_rowid)
                SELECT lower(json_extract(e.value, '$.value')), c.rowid FROM contacts c, json_each(c.body, '$.emails') e
                WHERE json_extract(e.value, '$.value') IS NOT NULL;
            CREATE TRIGGER contact_emails_of_new AFTER INSERT ON contacts BEGIN
                INSERT OR IGNORE INTO contact_emails (address, contact_rowid)
                    SELECT lower(json_extract(e.value, '$.value')), new.rowid FROM json_each(new.body, '$.emails') e
                    WHERE json_extract(e.value, '$.value') IS NOT NULL;
            END;
            CREATE TRIGGER contact_emails_of_changed AFTER UPDATE OF body ON contacts
                WHEN json_extract(old.body, '$.emails') IS NOT json_extract(new.body, '$.emails') BEGIN
                DELETE FROM contact_emails WHERE contact_rowid = old.rowid;
                INSERT OR IGNORE INTO contact_emails (address, contact_rowid)
                    SELECT lower(json_extract(e.value, '$.value')), new.rowid FROM json_each(new.body, '$.emails') e
                    WHERE json_extract(e.value, '$.value') IS NOT NULL;
            END;
            CREATE TRIGGER contact_emails_of_deleted AFTER DELETE ON contacts BEGIN
                DELETE FROM contact_emails WHERE contact_rowid = old.rowid;
            END;
            CREATE TRIGGER removals_of_collected_kept AFTER UPDATE OF body ON contacts WHEN old.collected <> new.collected BEGIN
                INSERT OR REPLACE INTO removals (book, contact_id, name, state, at)
                    SELECT CASE WHEN old.collected = 1 THEN '/collected' ELSE '' END, old.id,
                        coalesce((SELECT name FROM served_names WHERE contact_id = old.id), old.id || '.vcf'), state,
                        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) FROM commit_state;
            END;
            CREATE TABLE mail_addresses (
                address TEXT PRIMARY KEY,
                received INTEGER NOT NULL DEFAULT 0,
                received_at INTEGER,
                received_score REAL NOT NULL DEFAULT 0,
                sent INTEGER NOT NULL DEFAULT 0,
                sent_at INTEGER,
                sent_score REAL NOT NULL DEFAULT 0
            ) WITHOUT ROWID;
            CREATE TABLE mail_messages (id TEXT PRIMARY KEY) WITHOUT ROWID;
            """
        ),
    ]

    static var latestVersion: Int { all.last?.version ?? 0 }
}
