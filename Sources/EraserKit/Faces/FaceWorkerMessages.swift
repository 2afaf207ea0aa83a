import Foundation

/// The JSON lines spoken with `face_worker.py` (its docstring is the reference).
enum FaceWorkerMessages {
    /// One request: find and describe the faces in the image at `path`.
    struct Request: Encodable {
        var id: Int
        var path: String
        var upsample: Int
        var maxSide: Int
        var detectSide: Int

        enum CodingKeys: String, CodingKey {
            case id, path, upsample
            case maxSide = "max_side"
            case detectSide = "detect_side"
        }
    }

    /// The worker's first line.
    struct Hello: Decodable {
        var ready: Bool
        var dlib: String?
        var python: String?
        var models: String?
        var error: Failure?
    }

    /// One answer: the faces, or why there are none.
    struct Answer: Decodable {
        var id: Int?
        var width: Int?
        var height: Int?
        var faces: [Face]?
        var error: Failure?
    }

    /// One face in an answer.
    struct Face: Decodable {
        var box: [Int]
        var score: Double
        var descriptor: [Float]
    }

    /// A failure in an answer or the first line.
    struct Failure: Decodable {
        var code: String
        var message: String
    }

    /// The length of dlib's face descriptor.
    static let descriptorLength = 128

    /// The faces of an answer line to the request for `path`.
    /// - Throws: the worker's own failure as a typed error (`unreadable_image` →
    ///   `FaceError.unreadableImage`), or `FaceError.workerFailed` for a malformed answer.
    static func faces(from line: Data, path: String) throws(EraserKitError) -> [DetectedFace] {
        guard let answer = try? JSONDecoder().decode(Answer.self, from: line) else {
            throw .faces(.workerFailed("an answer is not the expected JSON: \(String(decoding: line.prefix(200), as: UTF8.self))"))
        }
        if let failure = answer.error {
            switch failure.code {
            case "unreadable_image": throw .faces(.unreadableImage(path: path, reason: failure.message))
            default: throw .faces(.workerFailed("\(failure.code): \(failure.message)"))
            }
        }
        guard let faces = answer.faces else { throw .faces(.workerFailed("an answer has neither faces nor an error")) }
        var detected: [DetectedFace] = []
        for face in faces {
            guard face.box.count == 4, face.descriptor.count == descriptorLength,
                  face.descriptor.allSatisfy(\.isFinite) else {
                throw .faces(.workerFailed("an answer has a malformed face (box \(face.box), \(face.descriptor.count) numbers)"))
            }
            let box = FaceBox(x: face.box[0], y: face.box[1], width: face.box[2], height: face.box[3])
            detected.append(DetectedFace(box: box, descriptor: face.descriptor))
        }
        return detected
    }
}
