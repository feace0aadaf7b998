import ContactsControl
import Foundation

exit(ContactsCtl.main(Array(CommandLine.arguments.dropFirst())))
