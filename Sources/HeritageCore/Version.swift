/// The version `heritage-lens --version` prints.
public enum HeritageLensVersion {
    public static let string = "0.1.0"
}
