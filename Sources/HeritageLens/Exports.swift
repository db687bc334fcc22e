// Images, bridge errors and pose solving are part of this library's API (frames, sources and
// sinks hand them over), so its users see them without importing the bridge themselves.
@_exported import HeritageBridge
