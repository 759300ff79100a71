#!/usr/bin/env bash
# Builds the unsigned iPhone app (Apps/iOS) into build/ipa/MultiSimAdmin.ipa for TrollStore:
#   swift build -c release --triple arm64-apple-ios16.0 with the iPhoneOS SDK, then
#   Payload/MultiSimAdmin.app (the executable, Info.plist, its English and Chinese texts,
#   resource bundles and the icon), zipped; prints the IPA's path, size and SHA-256 and writes
#   the SHA-256 beside it (MultiSimAdmin.ipa.sha256), as seed 000's builder does.
# No certificate, no provisioning profile, no signing (TrollStore, or your own tool, signs).
#
# Usage: scripts/build-ios-ipa.sh                    on a Mac with Xcode
#        scripts/build-ios-ipa.sh --dry-run FILE     anywhere: FILE stands in for the
#                                                    executable (checks the packaging only)
#        --output DIR  puts the IPA in DIR/MultiSimAdmin.ipa (default build/ipa)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
app=MultiSimAdmin
package="$root/Apps/iOS"
triple=arm64-apple-ios16.0
stand_in=""
out_dir="$root/build/ipa"

usage() {
  echo "usage: scripts/build-ios-ipa.sh [--dry-run EXECUTABLE] [--output DIR]" >&2
  exit 64
}
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run)
      [ $# -ge 2 ] || usage
      stand_in=$2
      shift 2
      ;;
    --output)
      [ $# -ge 2 ] || usage
      out_dir=$2
      shift 2
      ;;
    -h | --help)
      sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "error: unknown argument '$1'" >&2
      usage
      ;;
  esac
done

if [ -n "$stand_in" ]; then
  if [ ! -f "$stand_in" ]; then
    echo "error: --dry-run needs an existing file to stand in for the executable; '$stand_in' is not one" >&2
    exit 1
  fi
  executable=$stand_in
  bundles_dir=""
else
  if ! command -v xcrun >/dev/null 2>&1 || ! sdk=$(xcrun --sdk iphoneos --show-sdk-path 2>/dev/null) || [ -z "$sdk" ]; then
    echo "error: building the iPhone app needs Xcode (xcrun and the iPhoneOS SDK), which this machine lacks." >&2
    echo "Run scripts/build-ios-ipa.sh on a Mac with Xcode 15 or later (docs/ios.md);" >&2
    echo "here, scripts/build-ios-ipa.sh --dry-run FILE checks the packaging with a stand-in executable." >&2
    exit 1
  fi
  swift build --package-path "$package" -c release --product "$app" --triple "$triple" --sdk "$sdk"
  bin=$(swift build --package-path "$package" -c release --triple "$triple" --sdk "$sdk" --show-bin-path)
  executable="$bin/$app"
  bundles_dir=$bin
fi

# Assemble in a fresh staging directory beside the IPA, so nothing half-made is left as the IPA.
stage=$(mktemp -d "${TMPDIR:-/tmp}/msa-ipa.XXXXXX")
trap 'rm -rf "$stage"' EXIT
bundle="$stage/Payload/$app.app"
mkdir -p "$bundle"
cp "$executable" "$bundle/$app"
chmod 755 "$bundle/$app"
cp "$package/Info.plist" "$bundle/Info.plist"
cp "$package"/Resources/AppIcon*.png "$bundle/"
for texts in "$package"/Resources/*.lproj; do
  cp -R "$texts" "$bundle/"
done
# Resource bundles SwiftPM made beside the executable (today every resource is compiled in).
if [ -n "$bundles_dir" ]; then
  for resources in "$bundles_dir"/*.bundle "$bundles_dir"/*.resources; do
    [ -e "$resources" ] && cp -R "$resources" "$bundle/"
  done
fi

# The Info.plist must parse (plutil on a Mac, Python's plistlib elsewhere).
if command -v plutil >/dev/null 2>&1; then
  plutil -lint "$bundle/Info.plist" >/dev/null
else
  python3 -c 'import plistlib, sys; plistlib.load(open(sys.argv[1], "rb"))' "$bundle/Info.plist"
fi

mkdir -p "$out_dir"
ipa="$out_dir/$app.ipa"
(cd "$stage" && zip -qry -X "$stage/$app.ipa" Payload)
mv -f "$stage/$app.ipa" "$ipa"

size=$(wc -c <"$ipa" | tr -d ' ')
if command -v shasum >/dev/null 2>&1; then
  sha=$(shasum -a 256 "$ipa" | cut -d' ' -f1)
else
  sha=$(sha256sum "$ipa" | cut -d' ' -f1)
fi
# Seed 000 keeps the checksum beside the IPA too.
echo "$sha  $app.ipa" >"$ipa.sha256"
echo "IPA: $ipa"
echo "Size: $size bytes"
echo "SHA-256: $sha"
