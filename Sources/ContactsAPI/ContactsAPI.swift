import JSONRPC

/// The contract between contactsd and the programs that talk to it (contactsctl first): the
/// names of the methods and notifications, the application error codes, and the version.
/// Both sides spell them from here, so they cannot drift apart.
public enum ContactsAPI {
    /// The version of contactsd and contactsctl.
    public static let version = "0.1.0"

    /// The methods, by their JSON-RPC names.
    public enum Method {
        public static let contactsBackup = ContactsBackup.method
        public static let contactsCreate = ContactsCreate.method
        public static let contactsDelete = ContactsDelete.method
        public static let contactsExport = ContactsExport.method
        public static let contactsGet = ContactsGet.method
        public static let contactsImport = ContactsImport.method
        public static let contactsLookupPhone = ContactsLookupPhone.method
        public static let contactsDuplicates = ContactsDuplicates.method
        public static let contactsMerge = ContactsMerge.method
        public static let contactsNotDuplicates = ContactsNotDuplicates.method
        public static let contactsQuery = ContactsQuery.method
        public static let contactsRemovePhoto = ContactsRemovePhoto.method
        public static let contactsRestore = ContactsRestore.method
        public static let contactsSetFavorite = ContactsSetFavorite.method
        public static let contactsSetPhoto = ContactsSetPhoto.method
        public static let contactsThumbnail = ContactsThumbnail.method
        public static let contactsUpdate = ContactsUpdate.method
        public static let contactsUpcoming = ContactsUpcoming.method
        public static let contactsTrash = ContactsTrash.method
        public static let contactsUndelete = ContactsUndelete.method
        public static let contactsPurge = ContactsPurge.method
        public static let contactsHistory = ContactsHistory.method
        public static let changesSince = ChangesSince.method
        public static let contactsGetRevision = ContactsGetRevision.method
        public static let contactsRevert = ContactsRevert.method
        public static let changesList = ChangesList.method
        public static let changesUndo = ChangesUndo.method
        public static let changesRedo = ChangesRedo.method
        public static let accountsAdd = AccountsAdd.method
        public static let accountsList = AccountsList.method
        public static let accountsRemove = AccountsRemove.method
        public static let accountsUpdate = AccountsUpdate.method
        public static let accountsLogin = AccountsLogin.method
        public static let contactsMove = ContactsMove.method
        public static let syncRun = SyncRun.method
        public static let syncStatus = SyncStatus.method
        public static let syncConfirmDeletions = SyncConfirmDeletions.method
        public static let syncRejectDeletions = SyncRejectDeletions.method
        public static let daemonStatus = DaemonStatus.method
        public static let serveStatus = ServeStatus.method
        public static let serveSet = ServeSet.method
        public static let serveLANSet = ServeLANSet.method
        public static let serveCertificate = ServeCertificate.method
        public static let serveDevicesAdd = ServeDevicesAdd.method
        public static let serveDevicesList = ServeDevicesList.method
        public static let serveDevicesRemove = ServeDevicesRemove.method
        public static let serveDevicesPassword = ServeDevicesPassword.method
        public static let eventsSubscribe = EventsSubscribe.method
        public static let groupsAddMembers = GroupsAddMembers.method
        public static let groupsCreate = GroupsCreate.method
        public static let groupsDelete = GroupsDelete.method
        public static let groupsList = GroupsList.method
        public static let groupsRemoveMembers = GroupsRemoveMembers.method
        public static let groupsRename = GroupsRename.method
        public static let viewsOpen = ViewsOpen.method
        public static let viewsRead = ViewsRead.method
        public static let viewsClose = ViewsClose.method
        public static let mailAdd = MailAdd.method
        public static let mailQuery = MailQuery.method
        public static let mailRead = MailRead.method
        public static let serveQRCode = ServeQRCode.method
        public static let contactsKeep = ContactsKeep.method
        public static let contactsMe = ContactsMe.method
    }

    /// The notifications the daemon sends.
    public enum Notification {
        public static let contactsChanged = "contacts.changed"
        public static let groupsChanged = "groups.changed"
        public static let contactsReset = "contacts.reset"
        public static let inboxProcessed = "inbox.processed"
        public static let importProgress = "import.progress"
        public static let exportChunk = "export.chunk"
        public static let syncFinished = "sync.finished"
        public static let syncHeld = "sync.held"
        public static let syncProgress = "sync.progress"
        /// To the caller of a sign-in: `{account, url}`, the page to open in a browser.
        public static let accountSignIn = "account.signIn"
        public static let viewChanged = "view.changed"
        public static let viewReset = "view.reset"
    }
}

/// The application error codes of the API contract (the JSON-RPC ones are `RPCError.Code`'s).
extension RPCError.Code {
    public static let notFound = RPCError.Code(rawValue: -32001)
    public static let conflict = RPCError.Code(rawValue: -32002)
    public static let invalidData = RPCError.Code(rawValue: -32003)
    public static let tooLarge = RPCError.Code(rawValue: -32004)
    public static let unsupportedMedia = RPCError.Code(rawValue: -32005)
    public static let unavailable = RPCError.Code(rawValue: -32006)
    /// A sync server could not be reached, refused the credentials or answered what the client cannot use.
    public static let remoteFailed = RPCError.Code(rawValue: -32007)
}
