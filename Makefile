# Builds and installs contactsd for one user. PREFIX defaults to ~/.local, where systemd's
# user manager, bash-completion and fish look on their own.
PREFIX ?= $(HOME)/.local
BINDIR ?= $(PREFIX)/bin
# The image helper contactsd starts; it looks for it in ../libexec/contactsd from its own directory.
LIBEXECDIR ?= $(PREFIX)/libexec/contactsd
DATADIR ?= $(PREFIX)/share
UNITDIR ?= $(DATADIR)/systemd/user
MANDIR ?= $(DATADIR)/man
BASHDIR ?= $(DATADIR)/bash-completion/completions
ZSHDIR ?= $(DATADIR)/zsh/site-functions
FISHDIR ?= $(DATADIR)/fish/vendor_completions.d
CONFIG ?= release
SWIFT ?= swift

BUILD_DIR = $(shell $(SWIFT) build -c $(CONFIG) --show-bin-path 2>/dev/null)
# Completion and mail clients start contactsctl on every keystroke. A release contactsctl
# links the Swift runtime and Foundation statically (in a build directory of its own, since
# the flag applies to everything built with it): it then starts in about half the time.
STATIC_DIR = .build-static
CTL_DIR = $(if $(filter release,$(CONFIG)),$(STATIC_DIR)/release,$(BUILD_DIR))

.PHONY: all build static-client test install uninstall bench verify-units completions clean

all: build

build:
	scripts/install-deps.sh
	$(SWIFT) build -c $(CONFIG) --product contactsd
	$(SWIFT) build -c $(CONFIG) --product contactsd-imaging
	$(SWIFT) build -c $(CONFIG) --product contactsctl
	$(if $(filter release,$(CONFIG)),$(MAKE) --no-print-directory static-client)

static-client:
	$(SWIFT) build -c release --product contactsctl -Xswiftc -static-stdlib --scratch-path $(STATIC_DIR)

test:
	scripts/test.sh

# The bench drives the release contactsd beside it, and the contactsctl that is installed.
bench: static-client
	scripts/install-deps.sh
	$(SWIFT) build -c release --product contactsd
	$(SWIFT) build -c release --product contactsd-imaging
	$(SWIFT) build -c release --product contactsctl
	$(SWIFT) build -c release --product contacts-bench
	CONTACTS_BENCH_CTL=$(STATIC_DIR)/release/contactsctl $$($(SWIFT) build -c release --show-bin-path)/contacts-bench $(BENCH_ARGS)

install: build
	install -d -m 0755 $(DESTDIR)$(BINDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(LIBEXECDIR)
	install -m 0755 $(BUILD_DIR)/contactsd $(CTL_DIR)/contactsctl $(DESTDIR)$(BINDIR)/
	install -m 0755 $(BUILD_DIR)/contactsd-imaging $(DESTDIR)$(LIBEXECDIR)/
	sed 's|%h/.local/bin|$(BINDIR)|' systemd/contactsd.service > $(DESTDIR)$(UNITDIR)/contactsd.service
	install -m 0644 systemd/contactsd.socket $(DESTDIR)$(UNITDIR)/contactsd.socket
	chmod 0644 $(DESTDIR)$(UNITDIR)/contactsd.service
	@if [ -f completions/contactsctl.bash ]; then \
		install -d -m 0755 $(DESTDIR)$(BASHDIR) $(DESTDIR)$(ZSHDIR) $(DESTDIR)$(FISHDIR) && \
		install -m 0644 completions/contactsctl.bash $(DESTDIR)$(BASHDIR)/contactsctl && \
		install -m 0644 completions/_contactsctl $(DESTDIR)$(ZSHDIR)/_contactsctl && \
		install -m 0644 completions/contactsctl.fish $(DESTDIR)$(FISHDIR)/contactsctl.fish; fi
	@if [ -d man ]; then \
		install -d -m 0755 $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man8 && \
		install -m 0644 man/*.1 $(DESTDIR)$(MANDIR)/man1/ && install -m 0644 man/*.8 $(DESTDIR)$(MANDIR)/man8/; fi
	@echo "Installed. Now: systemctl --user daemon-reload && systemctl --user enable --now contactsd.socket"

uninstall:
	@systemctl --user disable --now contactsd.socket contactsd.service >/dev/null 2>&1 || true
	rm -f $(DESTDIR)$(BINDIR)/contactsd $(DESTDIR)$(BINDIR)/contactsctl $(DESTDIR)$(LIBEXECDIR)/contactsd-imaging
	-rmdir $(DESTDIR)$(LIBEXECDIR) 2>/dev/null
	rm -f $(DESTDIR)$(UNITDIR)/contactsd.service $(DESTDIR)$(UNITDIR)/contactsd.socket
	rm -f $(DESTDIR)$(BASHDIR)/contactsctl $(DESTDIR)$(ZSHDIR)/_contactsctl $(DESTDIR)$(FISHDIR)/contactsctl.fish
	rm -f $(DESTDIR)$(MANDIR)/man1/contactsctl.1 $(DESTDIR)$(MANDIR)/man8/contactsd.8
	@echo "Uninstalled. Your contacts in $${XDG_DATA_HOME:-$$HOME/.local/share}/contactsd are kept."

# systemd-analyze checks the units as installed (it needs the binary to exist).
verify-units:
	scripts/verify-units.sh

clean:
	$(SWIFT) package clean

# Regenerates the committed completion scripts from the command tree.
completions:
	$(SWIFT) build --product contactsctl
	$$($(SWIFT) build --show-bin-path)/contactsctl completions bash > completions/contactsctl.bash
	$$($(SWIFT) build --show-bin-path)/contactsctl completions zsh > completions/_contactsctl
	$$($(SWIFT) build --show-bin-path)/contactsctl completions fish > completions/contactsctl.fish
