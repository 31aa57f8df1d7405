// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SwiftRex",
    products: [
        .library(name: "SwiftRex", targets: ["SwiftRex"]),
        .library(name: "SwiftRexTesting", targets: ["SwiftRexTesting"]),
        .library(name: "SwiftRexTestSupport", targets: ["SwiftRexTestSupport"]),
    ],
    targets: [
        .target(name: "SwiftRex"),
        .target(
            name: "SwiftRexTesting",
            dependencies: ["SwiftRex"]
        ),
        .target(
            name: "SwiftRexTestSupport",
            dependencies: ["SwiftRex"]
        ),
        .testTarget(
            name: "SwiftRexTests",
            dependencies: ["SwiftRex", "SwiftRexTesting", "SwiftRexTestSupport"],
            exclude: ["BadInput/README.md"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
