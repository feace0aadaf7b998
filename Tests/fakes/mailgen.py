#!/usr/bin/env python3
"""Writes a maildir tree shaped like a real person's mail, for the tests and the bench.

Correspondents follow a long tail (a few people write most of the mail, most people once);
names come in several scripts and are encoded in several charsets; there are threads, mailing
lists, a Sent folder of the user's own messages, messages filed twice (the same Message-ID in
two folders), group syntax, comments, broken and huge headers.

    mailgen.py OUT --messages N [--seed S] [--me ADDRESS] [--mbox FILE]
"""
import argparse
import base64
import email.utils
import os
import random

FIRST = {
    "latin": ["Anna", "Jürgen", "François", "Zoë", "José", "Søren", "Łukasz", "Ana", "John", "Mary", "Ngozi", "Aoife"],
    "cyrillic": ["Василий", "Ольга", "Дмитрий", "Наталья"],
    "greek": ["Γιώργος", "Ελένη"],
    "cjk": ["太郎", "花子", "伟", "芳"],
    "arabic": ["محمد", "فاطمة"],
}
LAST = {
    "latin": ["Müller", "Dubois", "García", "Smith", "Nowak", "Rossi", "Jensen", "O'Brien", "Okafor", "Silva"],
    "cyrillic": ["Иванов", "Петрова", "Смирнов"],
    "greek": ["Παπαδόπουλος", "Νικολάου"],
    "cjk": ["山田", "佐藤", "王", "李"],
    "arabic": ["العلي", "حسن"],
}
CHARSETS = {
    "latin": ["utf-8", "iso-8859-1", "windows-1252"],
    "cyrillic": ["utf-8", "koi8-r"],
    "greek": ["utf-8", "iso-8859-7"],
    "cjk": ["utf-8", "iso-2022-jp", "shift_jis", "big5"],
    "arabic": ["utf-8"],
}
DOMAINS = ["example.org", "example.com", "mail.example.net", "uni.example.edu", "firma.example.de", "example.jp"]


def person(rng, i):
    script = rng.choices(list(FIRST), weights=[70, 10, 5, 10, 5])[0]
    first, last = rng.choice(FIRST[script]), rng.choice(LAST[script])
    local = "%s.%s%d" % ("abcdefghij"[i % 10], "klmnopqrst"[(i // 10) % 10], i)
    return script, first + " " + last, "%s@%s" % (local, rng.choice(DOMAINS))


def encoded(rng, script, name):
    """The name as a header writes it: an encoded word in one of its charsets, or plain."""
    if script == "latin" and name.isascii():
        return '"%s"' % name if "'" in name else name
    for charset in rng.sample(CHARSETS[script], len(CHARSETS[script])):
        try:
            raw = name.encode(charset)
        except (UnicodeEncodeError, LookupError):
            continue
        # Written by hand, so that the charset is named as MIME names it.
        if rng.random() < 0.5:
            return "=?%s?B?%s?=" % (charset, base64.b64encode(raw).decode())
        q = "".join(chr(b) if 0x30 <= b < 0x7F and chr(b) not in "=?_" else "_" if b == 0x20 else "=%02X" % b for b in raw)
        return "=?%s?Q?%s?=" % (charset, q)
    return '"%s"' % name


def mailbox(rng, p):
    script, name, addr = p
    style = rng.random()
    if style < 0.08:
        return addr
    if style < 0.12 and name.isascii():
        return "%s (%s)" % (addr, name)
    return "%s <%s>" % (encoded(rng, script, name), addr)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(text if isinstance(text, bytes) else text.encode("utf-8"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--messages", type=int, default=500)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--me", default="me@home.example")
    ap.add_argument("--mbox")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    people = [person(rng, i) for i in range(max(20, a.messages // 4))]
    # A long tail: person k writes with weight 1/(k+1).
    weights = [1.0 / (k + 1) for k in range(len(people))]
    lists = ["dev@lists.example.org", "announce@lists.example.com", "users@lists.example.net"]
    if a.mbox:
        os.makedirs(os.path.dirname(os.path.abspath(a.mbox)), exist_ok=True)
    mbox = open(a.mbox, "wb") if a.mbox else None
    ids = []
    for n in range(a.messages):
        kind = rng.random()
        date = email.utils.formatdate(1_700_000_000 + n * 600 + rng.randrange(600), localtime=False)
        mid = "<%d.%d@gen.example>" % (a.seed, n)
        lines = []
        folder = "INBOX"
        if kind < 0.12:
            folder = "Sent"
            to = rng.choices(people, weights=weights, k=rng.choice([1, 1, 1, 2, 3]))
            lines.append("From: Me Myself <%s>" % a.me)
            lines.append("To: " + ", ".join(mailbox(rng, p) for p in to))
            if rng.random() < 0.3:
                lines.append("Cc: " + mailbox(rng, rng.choices(people, weights=weights)[0]))
            if rng.random() < 0.05:
                lines.append("Bcc: " + mailbox(rng, rng.choice(people)))
        elif kind < 0.35:
            folder = "Lists"
            sender = rng.choices(people, weights=weights)[0]
            lst = rng.choice(lists)
            lines.append("From: " + mailbox(rng, sender))
            lines.append("To: " + lst)
            lines.append("List-Id: <%s>" % lst.replace("@", "."))
            lines.append("Reply-To: " + lst)
        else:
            sender = rng.choices(people, weights=weights)[0]
            lines.append("From: " + mailbox(rng, sender))
            to = [a.me] + [mailbox(rng, p) for p in rng.choices(people, weights=weights, k=rng.choice([0, 0, 0, 1, 2]))]
            lines.append("To: " + ", ".join(to))
            if rng.random() < 0.03:
                # Group syntax, with members and without.
                lines.append("Cc: Project: %s, %s;, undisclosed-recipients:;" % (mailbox(rng, rng.choice(people)), mailbox(rng, rng.choice(people))))
        if ids and rng.random() < 0.4:
            lines.append("In-Reply-To: %s" % rng.choice(ids[-50:]))
        lines.append("Subject: message %d" % n)
        lines.append("Date: " + date)
        lines.append("Message-ID: " + mid)
        odd = rng.random()
        if odd < 0.01:
            lines.append("this line is broken and no header")
        elif odd < 0.02:
            # A huge header: one long folded To (the user among two hundred).
            many = ", ".join(mailbox(rng, rng.choice(people)) for _ in range(200))
            lines = [l for l in lines if not l.startswith("To:")] + ["To: " + many.replace(", ", ",\r\n\t")]
        elif odd < 0.025:
            lines.append("X-Long: " + "x" * 5000)
        ids.append(mid)
        head = "\n".join(lines).encode("utf-8")
        if odd > 0.995 and folder == "INBOX":
            # A raw 8-bit name in Latin-1, as old clients wrote it.
            first, rest = head.split(b"\n", 1)
            head = "From: Jörg Raw <joerg.raw%d@example.de>".encode("latin-1") % n + b"\n" + rest
        body = b"\n\nHello,\n\nmessage %d.\n" % n
        path = os.path.join(a.out, folder, "cur", "%d.%d.gen:2,S" % (a.seed, n))
        write(path, head + body)
        if rng.random() < 0.02:
            # Filed twice: the same message in the archive too.
            write(os.path.join(a.out, "Archive", "cur", "%d.%d.copy:2,S" % (a.seed, n)), head + body)
        if mbox and n % 10 == 0:
            mbox.write(b"From sender@example.org Mon Dec  7 10:00:00 2026\n" + head + body + b"\n")
    for folder in ["INBOX", "Sent", "Lists", "Archive"]:
        for sub in ["cur", "new", "tmp"]:
            os.makedirs(os.path.join(a.out, folder, sub), exist_ok=True)
    if mbox:
        mbox.close()


if __name__ == "__main__":
    main()
