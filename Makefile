# Builds and installs contactsd for one user. PREFIX defaults to ~/.local, where systemd's
# user manager, bash-completion and fish look on their own.
PREFIX ?= $(HOME)/.local
BINDIR ?= $(PREFIX)/bin
# The image helper contactsd starts, and the full client contactsctl runs for every command
# but query-email; each looks in ../libexec/contactsd from its own directory.
LIBEXECDIR ?= $(PREFIX)/libexec/contactsd
DATADIR ?= $(PREFIX)/share
UNITDIR ?= $(DATADIR)/systemd/user
MANDIR ?= $(DATADIR)/man
BASHDIR ?= $(DATADIR)/bash-completion/completions
ZSHDIR ?= $(DATADIR)/zsh/site-functions
FISHDIR ?= $(DATADIR)/fish/vendor_completions.d
CONFIG ?= release
SWIFT ?= swift

# A release build links the Swift runtime and Foundation statically, in a build directory of
# its own (the flag applies to everything built with it): contactsd keeps some 6 MiB fewer
# pages of shared libraries resident. (contactsctl, which completion and mail clients start on
# every keystroke, and contactsctl-full are static executables in every build: Package.swift
# links them so.)
STATIC_DIR = .build-static
# Linked by lld with relative relocations packed (DT_RELR, glibc 2.36): the relocations of a
# position-independent static-stdlib binary were 1.8 MB, read once at start and then kept
# resident for the life of the daemon.
RELEASE_LINK = -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
RELEASE_BUILD = $(SWIFT) build -c release -Xswiftc -static-stdlib $(RELEASE_LINK) --scratch-path $(STATIC_DIR)
ifeq ($(CONFIG),release)
SWIFT_BUILD = $(RELEASE_BUILD)
else
SWIFT_BUILD = $(SWIFT) build -c $(CONFIG)
endif
BUILD_DIR = $(shell $(SWIFT_BUILD) --show-bin-path 2>/dev/null)

.PHONY: all build bin-dir test install uninstall bench verify-units completions clean

all: build

build:
	scripts/install-deps.sh
	$(SWIFT_BUILD) --product contactsd
	$(SWIFT_BUILD) --product contactsd-imaging
	$(SWIFT_BUILD) --product contactsctl
	$(SWIFT_BUILD) --product contactsctl-full

# Where `build` puts the programs (scripts/run.sh starts contactsd from there).
bin-dir:
	@echo $(BUILD_DIR)

test:
	scripts/test.sh

# The bench drives the release contactsd and contactsctl built beside it.
bench:
	scripts/install-deps.sh
	$(RELEASE_BUILD) --product contactsd
	$(RELEASE_BUILD) --product contactsd-imaging
	$(RELEASE_BUILD) --product contactsctl
	$(RELEASE_BUILD) --product contactsctl-full
	$(RELEASE_BUILD) --product contacts-bench
	$$($(RELEASE_BUILD) --show-bin-path)/contacts-bench $(BENCH_ARGS)

install: build
	install -d -m 0755 $(DESTDIR)$(BINDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(LIBEXECDIR)
	install -m 0755 $(BUILD_DIR)/contactsd $(BUILD_DIR)/contactsctl $(DESTDIR)$(BINDIR)/
	install -m 0755 $(BUILD_DIR)/contactsd-imaging $(BUILD_DIR)/contactsctl-full $(DESTDIR)$(LIBEXECDIR)/
	sed 's|%h/.local/bin|$(BINDIR)|' systemd/contactsd.service > $(DESTDIR)$(UNITDIR)/contactsd.service
	install -m 0644 systemd/contactsd.socket $(DESTDIR)$(UNITDIR)/contactsd.socket
	install -m 0644 systemd/contactsd-carddav.socket $(DESTDIR)$(UNITDIR)/contactsd-carddav.socket
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
	@systemctl --user disable --now contactsd-carddav.socket contactsd.socket contactsd.service >/dev/null 2>&1 || true
	rm -f $(DESTDIR)$(BINDIR)/contactsd $(DESTDIR)$(BINDIR)/contactsctl $(DESTDIR)$(LIBEXECDIR)/contactsd-imaging $(DESTDIR)$(LIBEXECDIR)/contactsctl-full
	-rmdir $(DESTDIR)$(LIBEXECDIR) 2>/dev/null
	rm -f $(DESTDIR)$(UNITDIR)/contactsd.service $(DESTDIR)$(UNITDIR)/contactsd.socket $(DESTDIR)$(UNITDIR)/contactsd-carddav.socket
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
	scripts/man-options.sh $$($(SWIFT) build --show-bin-path)/contactsctl man/contactsctl.1
