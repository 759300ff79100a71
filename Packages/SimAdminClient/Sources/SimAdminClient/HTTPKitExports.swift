// The HTTP types a user of the device client names (a transport to pass to a connector, a
// wrapper that injects a fault in a test, the error reasons) come with `import
// SimAdminClient`, as they did before they moved to HTTPKit. Only these: HTTPKit's server,
// parsers and sockets stay out of sight of the features (scripts/lint keeps features from
// importing HTTPKit).
@_exported import enum HTTPKit.HTTPMethod
@_exported import struct HTTPKit.HTTPRequest
@_exported import struct HTTPKit.HTTPResponse
@_exported import protocol HTTPKit.HTTPTransport
@_exported import enum HTTPKit.HTTPTransportError
@_exported import enum HTTPKit.HTTPTransports
@_exported import enum HTTPKit.LocalNetworkAccess
@_exported import class HTTPKit.SocketTransport
@_exported import enum HTTPKit.UnreachableReason
