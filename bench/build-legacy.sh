# Sourced by the bench scripts: builds our example jar and the 1.3.1 benchmark classes, then sets
#   JAR            our example jar
#   LEGACY_JAVA    the java command line (array) that runs a class against the real 1.3.1 jars on JDK 17
echo "building..." >&2
mvn -B -q -DskipTests package -pl jupiter-example -am >&2
mvn -B -q -f jupiter-compat/legacy-classpath/pom.xml generate-resources >&2
LEGACY_CP=$(cat jupiter-compat/legacy-classpath/target/legacy-classpath.txt)
LEGACY_CLASSES=target/legacy-bench
rm -rf "$LEGACY_CLASSES" && mkdir -p "$LEGACY_CLASSES"
javac --release 8 -nowarn -cp "$LEGACY_CP" -d "$LEGACY_CLASSES" \
  jupiter-compat/src/legacy/java/compat/legacy/BenchmarkService.java \
  jupiter-compat/src/legacy/java/compat/legacy/LegacyBenchmarkServer.java \
  jupiter-compat/src/legacy/java/compat/legacy/LegacyBenchmarkClient.java 2>/dev/null
LEGACY_JAVA=(java --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED
  --add-opens java.base/java.math=ALL-UNNAMED -cp "$LEGACY_CLASSES:$LEGACY_CP")
JAR=jupiter-example/target/jupiter-example.jar
