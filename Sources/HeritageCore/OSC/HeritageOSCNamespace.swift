/// The project's own OSC messages: everything in a frame, one bundle per entity, so that no
/// datagram passes `datagramLimit` and a receiver never gets half a face.
///
/// ```
/// /heritage/frame            i index, f time (s), s tier, f total (ms), i faces, i cards, i width, i height
/// /heritage/frame/stages     (s stage, f ms) per stage, in pipeline order
/// /heritage/face             i id, f bbox x y w h, i posed, f rvec[3] (rad), tvec[3] (m), euler[3] (deg: pitch, yaw, roll)
/// /heritage/face/landmarks   i id, f x0 y0 … x67 y67 (pixels)
/// /heritage/card             s id, f corners x y ×4 (pixels: TL TR BR BL), i posed, f rvec[3], tvec[3]
/// ```
/// Without a pose, `posed` is 0 and the pose floats are 0. Units are those of the anchors file.
public enum HeritageOSCNamespace {
    /// Bytes a datagram may hold without IP fragmentation on an Ethernet path (1,500 MTU less
    /// headers, with room for tunnels).
    public static let datagramLimit = 1400

    /// The bundles for a frame: the frame's own, then one per face, then one per card.
    public static func bundles(for anchors: FrameAnchors, metrics: FrameMetrics?) -> [OSCBundle] {
        var frame = [OSCMessage("/heritage/frame", [
            .int32(Int32(truncatingIfNeeded: anchors.frame)), .float32(Float(anchors.time)),
            .string(metrics?.tier ?? ""), .float32(Float(metrics?.totalMilliseconds ?? 0)),
            .int32(Int32(anchors.faces.count)), .int32(Int32(anchors.cards.count)),
            .int32(Int32(anchors.size.width)), .int32(Int32(anchors.size.height)),
        ])]
        if let metrics {
            frame.append(OSCMessage("/heritage/frame/stages",
                                    metrics.stages.flatMap { [OSCArgument.string($0.name), .float32(Float($0.milliseconds))] }))
        }
        var bundles = [OSCBundle(messages: frame)]
        for face in anchors.faces {
            let b = face.boundingBox
            var args: [OSCArgument] = [.int32(Int32(truncatingIfNeeded: face.id))]
            args += [b.x, b.y, b.width, b.height].map { .float32(Float($0)) }
            args += poseArguments(face.pose, euler: true)
            let landmarks = [OSCArgument.int32(Int32(truncatingIfNeeded: face.id))]
                + face.landmarks.flatMap { [OSCArgument.float32(Float($0.x)), .float32(Float($0.y))] }
            bundles.append(OSCBundle(messages: [OSCMessage("/heritage/face", args),
                                                OSCMessage("/heritage/face/landmarks", landmarks)]))
        }
        for card in anchors.cards {
            var args: [OSCArgument] = [.string(card.id)]
            args += card.corners.flatMap { [OSCArgument.float32(Float($0.x)), .float32(Float($0.y))] }
            args += poseArguments(card.pose, euler: false)
            bundles.append(OSCBundle(messages: [OSCMessage("/heritage/card", args)]))
        }
        return bundles
    }

    private static func poseArguments(_ pose: Pose?, euler: Bool) -> [OSCArgument] {
        var values = [Double](repeating: 0, count: euler ? 9 : 6)
        if let pose {
            values = pose.rotation.array + pose.translation.array + (euler ? pose.eulerDegrees.array : [])
        }
        return [.int32(pose == nil ? 0 : 1)] + values.map { .float32(Float($0)) }
    }

    /// The datagrams for `bundles`: each bundle as one, unless it is over `limit`, when each of its
    /// messages goes in a bundle of its own (a card id thousands of bytes long, say).
    public static func datagrams(_ bundles: [OSCBundle], limit: Int = datagramLimit) -> [[UInt8]] {
        bundles.flatMap { bundle -> [[UInt8]] in
            if bundle.encodedSize <= limit || bundle.messages.count == 1 { return [bundle.encoded()] }
            return bundle.messages.map { OSCBundle(timeTag: bundle.timeTag, messages: [$0]).encoded() }
        }
    }
}
