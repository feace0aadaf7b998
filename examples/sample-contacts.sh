#!/usr/bin/env bash
# Loads the sample people into a running contactsd through contactsctl: the same people as
# sample-contacts.vcf. An address is LABEL:STREET; CITY; REGION; POSTCODE; COUNTRY.
# Usage: examples/sample-contacts.sh [path/to/contactsctl]
set -euo pipefail
ctl="${1:-contactsctl}"
"$ctl" add "John Appleseed" --email work:John-Appleseed@mac.com --phone mobile:888-555-5512 \
    --phone home:888-555-1212 --address "work:3494 Kuhl Avenue; Atlanta; GA; 30303; USA" --birthday 1980-06-22 \
    --group Family --favorite
"$ctl" add "Kate Bell" --email work:kate-bell@mac.com --phone mobile:"(555) 564-8583" \
    --phone main:"(415) 555-3695" --organization "Creative Consulting" --title Producer \
    --address "work:165 Davis Street; Hillsborough; CA; 94010" --birthday 1978-01-20 --group Work
"$ctl" add "Anna Haro" --email home:anna-haro@mac.com --phone home:555-522-8243 \
    --nickname "Annie" --address "home:1001 Leavenworth Street; Sausalito; CA; 94965; USA" --birthday 1985-08-29 \
    --group Friends
