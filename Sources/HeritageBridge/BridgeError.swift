import CBridge

/// A failure inside OpenCV, dlib or libv4l2, with the bridge's message.
public struct BridgeError: Error, Sendable, CustomStringConvertible {
    public let operation: String
    public let message: String

    public var description: String { message.isEmpty ? operation : "\(operation): \(message)" }

    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    /// Reads the bridge's thread-local message; call right after the failing call.
    static func last(_ operation: String) -> BridgeError {
        BridgeError(operation: operation, message: String(cString: cb_last_error()))
    }
}

/// Throws the bridge's last error when a call reports failure (a negative status).
@discardableResult
func check(_ status: Int32, _ operation: @autoclosure () -> String) throws(BridgeError) -> Int32 {
    if status < 0 { throw BridgeError.last(operation()) }
    return status
}
