// The XML tree and namespaces are the DAV vocabulary the client shares with the server.
@_exported import DAVXML
