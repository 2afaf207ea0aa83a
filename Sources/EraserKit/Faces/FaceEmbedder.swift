import Foundation

/// Finds faces in an image and describes each one as a vector: Apple Vision's face prints on
/// iOS, dlib's face detector and 128-d ResNet descriptor on Linux.
public protocol FaceEmbedder: Sendable {
    /// Every face found in the image at `url`, with its descriptor. An image without faces gives
    /// an empty array; an unreadable one throws.
    func faces(in url: URL) async throws(EraserKitError) -> [DetectedFace]

    /// How many images the embedder works on at once; the scan keeps this many in flight.
    var concurrency: Int { get }
}

extension FaceEmbedder {
    /// One image at a time, unless the embedder says otherwise.
    public var concurrency: Int { 1 }
}

/// A face's box in the image, in pixels.
public struct FaceBox: Sendable, Equatable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// One face and its descriptor.
public struct DetectedFace: Sendable, Equatable, Codable {
    public var box: FaceBox
    /// The descriptor (128 numbers for dlib); faces of one person lie close together.
    public var descriptor: [Float]

    public init(box: FaceBox, descriptor: [Float]) {
        self.box = box
        self.descriptor = descriptor
    }
}
