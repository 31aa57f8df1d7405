// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SwiftRex",
    products: [
        .library(name: "SwiftRex", targets: ["SwiftRex"]),
        .library(name: "SwiftRexTestSupport", targets: ["SwiftRexTestSupport"]),
    ],
    targets: [
        .target(name: "SwiftRex"),
        .target(
            name: "SwiftRexTestSupport",
            dependencies: ["SwiftRex"]
        ),
        .testTarget(
            name: "SwiftRexTests",
            dependencies: ["SwiftRex", "SwiftRexTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
