import Foundation

/// The OpenAPI document this module's types, server protocol and client are generated from.
///
/// The server answers `GET /openapi/exeraser.yaml` with exactly these bytes, so the served contract
/// is the one the code was built from. The file is a bundle resource of this module.
public enum EraserOpenAPIDocument {
    /// Errors reading the bundled document.
    public enum LoadError: Error, CustomStringConvertible {
        /// The `openapi.yaml` resource is not in the module bundle (a broken install).
        case missingResource

        /// A one-line description of the failure.
        public var description: String {
            switch self {
            case .missingResource: "openapi.yaml is missing from the EraserAPI resource bundle"
            }
        }
    }

    /// Reads the document's bytes from the module bundle.
    /// - Throws: `LoadError.missingResource` when the bundle does not hold it.
    public static func load() throws(LoadError) -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
              let data = try? Data(contentsOf: url)
        else { throw .missingResource }
        return [UInt8](data)
    }
}
