#!/usr/bin/env bash
# Loads the sample people into a running contactsd through contactsctl.
# Usage: examples/sample-contacts.sh [path/to/contactsctl]
set -euo pipefail
ctl="${1:-contactsctl}"
"$ctl" add "John Appleseed" --email work:John-Appleseed@mac.com --phone mobile:888-555-5512 \
    --phone home:888-555-1212 --address "3494 Kuhl Avenue, Atlanta, GA 30303" --birthday 1980-06-22 \
    --group Family --favorite
"$ctl" add "Kate Bell" --email work:kate-bell@mac.com --phone mobile:"(555) 564-8583" \
    --phone main:"(415) 555-3695" --organization "Creative Consulting" --title Producer \
    --address "165 Davis Street, Hillsborough, CA 94010" --birthday 1978-01-20 --group Work
"$ctl" add "Anna Haro" --email home:anna-haro@mac.com --phone home:555-522-8243 \
    --nickname "Annie" --address "1001 Leavenworth Street, Sausalito, CA 94965" --birthday 1985-08-29 \
    --group Friends
