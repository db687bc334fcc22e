/// A V4L2 error with the device's errno (2 missing, 13 no permission, 16 busy, 19 gone, 25 not a
/// V4L2 device, …) so the caller can say what to do.
public struct V4L2Error: Error, Sendable, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var description: String { message }
}
