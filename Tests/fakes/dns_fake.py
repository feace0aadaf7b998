"""A DNS server for tests: answers SRV and TXT questions from a table, NXDOMAIN otherwise.

Usage: dns_fake.py PORT RECORDS.json, where RECORDS.json maps a lower-case name to
{"srv": [[priority, weight, port, target], ...], "txt": ["key=value", ...]}.
"""

import json
import socket
import struct
import sys

SRV, TXT = 33, 16


def name_bytes(name):
    out = b""
    for label in name.rstrip(".").split("."):
        if label:
            out += bytes([len(label)]) + label.encode()
    return out + b"\x00"


def read_name(data, at):
    labels = []
    while data[at]:
        n = data[at]
        labels.append(data[at + 1 : at + 1 + n].decode())
        at += 1 + n
    return ".".join(labels), at + 1


def main():
    port, table = int(sys.argv[1]), json.load(open(sys.argv[2]))
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", port))
    while True:
        data, peer = s.recvfrom(4096)
        qid = data[:2]
        qname, end = read_name(data, 12)
        qtype = struct.unpack(">H", data[end : end + 2])[0]
        question = data[12 : end + 4]
        entry = table.get(qname.lower())
        answers = []
        if entry and qtype == SRV:
            for prio, weight, p, target in entry.get("srv", []):
                rdata = struct.pack(">HHH", prio, weight, p) + name_bytes(target)
                answers.append(struct.pack(">HHHIH", 0xC00C, SRV, 1, 60, len(rdata)) + rdata)
        elif entry and qtype == TXT:
            for text in entry.get("txt", []):
                rdata = bytes([len(text)]) + text.encode()
                answers.append(struct.pack(">HHHIH", 0xC00C, TXT, 1, 60, len(rdata)) + rdata)
        rcode = 0 if entry else 3
        header = qid + struct.pack(">HHHHH", 0x8180 | rcode, 1, len(answers), 0, 0)
        s.sendto(header + question + b"".join(answers), peer)


if __name__ == "__main__":
    main()
