#if canImport(Vision) && canImport(ImageIO)
// Written for iOS/macOS and NOT compiled or run on the Linux machines this project is built on
// (there is no Vision there): the app's `FaceEmbedder`, in place of `DlibWorkerFaceEmbedder`.
import CoreGraphics
import Foundation
import ImageIO
import Vision

/// The Apple `FaceEmbedder`: Vision's face detector (`VNDetectFaceRectanglesRequest`) and, for
/// each face, Vision's image feature print of the face's square crop
/// (`VNGenerateImageFeaturePrintRequest`) as its descriptor. Apple publishes no face-recognition
/// embedding, so the feature print of the crop stands in: its distances are not on dlib's scale,
/// and the app sets its own threshold (`ScanConfiguration.threshold`) from its own measurements
/// rather than dlib's 0.6. Boxes are in pixels of the upright image (EXIF orientation applied).
public struct VisionFaceEmbedder: FaceEmbedder {
    /// The image is decoded with its long side at most this many pixels (ImageIO thumbnailing,
    /// which is as cheap as libjpeg's DCT scaling).
    public var maxSide: Int
    /// A face crop is the face's box grown by this fraction on each side (hair and chin help).
    public var padding: Double

    /// An embedder (1280 px, 25 % padding).
    public init(maxSide: Int = 1280, padding: Double = 0.25) {
        self.maxSide = maxSide
        self.padding = padding
    }

    /// Vision runs on the CPU cores and the Neural Engine: two photos in flight keep it busy.
    public var concurrency: Int { 2 }

    public func faces(in url: URL) async throws(EraserKitError) -> [DetectedFace] {
        guard url.isFileURL else { throw .faces(.unreadableImage(path: url.absoluteString, reason: "not a file")) }
        let path = url.path
        let (image, fullWidth, fullHeight) = try Self.upright(url, maxSide: maxSide)
        let faces: [VNFaceObservation]
        do {
            let request = VNDetectFaceRectanglesRequest()
            try VNImageRequestHandler(cgImage: image, options: [:]).perform([request])
            faces = request.results ?? []
        } catch {
            throw .faces(.workerFailed("Vision's face detector failed on \(path): \(error.localizedDescription)"))
        }
        let width = Double(image.width), height = Double(image.height)
        let scaleX = Double(fullWidth) / width, scaleY = Double(fullHeight) / height
        var detected: [DetectedFace] = []
        for face in faces {
            // Vision's boxes are normalised with the origin at the bottom left.
            let box = face.boundingBox
            let x = box.minX * width, y = (1 - box.maxY) * height
            let w = box.width * width, h = box.height * height
            let side = max(w, h) * (1 + 2 * padding)
            let crop = CGRect(x: x + w / 2 - side / 2, y: y + h / 2 - side / 2, width: side, height: side)
                .intersection(CGRect(x: 0, y: 0, width: width, height: height)).integral
            guard !crop.isEmpty, let chip = image.cropping(to: crop) else { continue }
            let descriptor: [Float]
            do {
                let request = VNGenerateImageFeaturePrintRequest()
                try VNImageRequestHandler(cgImage: chip, options: [:]).perform([request])
                guard let print = request.results?.first else { continue }
                descriptor = Self.floats(of: print)
            } catch {
                throw .faces(.workerFailed("Vision's feature print failed on \(path): \(error.localizedDescription)"))
            }
            guard !descriptor.isEmpty, descriptor.allSatisfy(\.isFinite) else { continue }
            let full = FaceBox(x: Int((x * scaleX).rounded()), y: Int((y * scaleY).rounded()),
                               width: Int((w * scaleX).rounded()), height: Int((h * scaleY).rounded()))
            detected.append(DetectedFace(box: full, descriptor: descriptor))
        }
        return detected
    }

    /// The upright image, its long side at most `maxSide`, and the upright full size.
    private static func upright(_ url: URL, maxSide: Int) throws(EraserKitError) -> (CGImage, Int, Int) {
        guard let source = CGImageSourceCreateWithURL(url as CFURL, nil),
              let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any],
              let pixelWidth = properties[kCGImagePropertyPixelWidth] as? Int,
              let pixelHeight = properties[kCGImagePropertyPixelHeight] as? Int else {
            throw .faces(.unreadableImage(path: url.path, reason: "ImageIO cannot read it"))
        }
        let orientation = properties[kCGImagePropertyOrientation] as? Int ?? 1
        let turned = (5...8).contains(orientation)
        let options: [CFString: Any] = [
            kCGImageSourceCreateThumbnailFromImageAlways: true,
            kCGImageSourceCreateThumbnailWithTransform: true,  // Applies the EXIF orientation.
            kCGImageSourceThumbnailMaxPixelSize: min(maxSide, max(pixelWidth, pixelHeight)),
        ]
        guard let image = CGImageSourceCreateThumbnailAtIndex(source, 0, options as CFDictionary) else {
            throw .faces(.unreadableImage(path: url.path, reason: "ImageIO cannot decode it"))
        }
        return (image, turned ? pixelHeight : pixelWidth, turned ? pixelWidth : pixelHeight)
    }

    /// A feature print's numbers as floats (Vision gives 32- or 64-bit elements).
    private static func floats(of print: VNFeaturePrintObservation) -> [Float] {
        let data = print.data
        switch print.elementType {
        case .float:
            return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self).prefix(print.elementCount)) }
        case .double:
            return data.withUnsafeBytes { $0.bindMemory(to: Double.self).prefix(print.elementCount).map { Float($0) } }
        default:
            return []
        }
    }
}
#endif
