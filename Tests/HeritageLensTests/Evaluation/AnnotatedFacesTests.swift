import Foundation
import Testing
@testable import HeritageLens
@testable import HeritageTooling

@Suite struct AnnotatedFacesTests {
    @Test func dlibXMLIsRead() throws {
        let dir = TestPaths.scratch()
        var parts = ""
        for i in 0..<68 { parts += "<part name='\(String(format: "%02d", i))' x='\(100 + i)' y='\(50 + i)'/>" }
        let xml = """
            <?xml version='1.0' encoding='ISO-8859-1'?>
            <dataset><images>
              <image file='a.jpg'><box top='10' left='20' width='30' height='40'>\(parts)</box>
                <box top='1' left='2' width='3' height='4'><part name='00' x='1' y='1'/></box></image>
            </images></dataset>
            """
        try xml.write(toFile: "\(dir)/f.xml", atomically: true, encoding: .utf8)
        let faces = try AnnotatedFaces.load(["\(dir)/f.xml"])
        #expect(faces.count == 1)  // the box with one part is skipped
        #expect(faces[0].imagePath == "\(dir)/a.jpg")
        #expect(faces[0].box.width == 30)
        #expect(faces[0].landmarks[67].x == 167)
    }

    @Test func brokenXMLIsAnErrorNamingTheFile() throws {
        let dir = TestPaths.scratch()
        try "<dataset><images><image file='x'".write(toFile: "\(dir)/bad.xml", atomically: true, encoding: .utf8)
        #expect { try AnnotatedFaces.load(["\(dir)/bad.xml"]) } throws: { "\($0)".contains("bad.xml") }
    }

    @Test(.enabled(if: TestPaths.sharedFaces != nil, "needs ../shared/data/faces"))
    func theSharedSetHasItsFortyThreeFaces() throws {
        let dir = TestPaths.sharedFaces!
        let xmls = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".xml") }
            .map { "\(dir)/\($0)" }
        let faces = try AnnotatedFaces.load(xmls)
        #expect(faces.count == 43)
        #expect(faces.allSatisfy { FileManager.default.fileExists(atPath: $0.imagePath) })
    }
}
