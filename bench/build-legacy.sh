# Sourced by the bench scripts: builds our example jar, the load driver and the 1.3.1 side, then sets
#   JAR              our example jar (our targets and the driver, with everything they need)
#   DRIVER_JAR       the load driver alone (with HdrHistogram): runs the comparison and sits on 1.3.1's class path
#   LEGACY_CP        the class path of 1.3.1's side: our 1.3.1 programs and adapter, the driver, the real 1.3.1 jars
#   LEGACY_JAVA      the java command line (array) that runs a class against the real 1.3.1 jars on JDK 17
echo "building..." >&2
mvn -B -q -DskipTests package -pl jupiter-example -am >&2
mvn -B -q -f jupiter-compat/legacy-classpath/pom.xml generate-resources >&2
JAR=jupiter-example/target/jupiter-example.jar
DRIVER_JAR=$(ls jupiter-benchmark/driver/target/jupiter-benchmark-driver-*standalone.jar)
LEGACY_JARS=$(cat jupiter-compat/legacy-classpath/target/legacy-classpath.txt)
LEGACY_CLASSES=target/legacy-bench
rm -rf "$LEGACY_CLASSES" && mkdir -p "$LEGACY_CLASSES"
# The 1.3.1 programs target Java 8 like the rest of src/legacy; the adapter implements the driver's (Java 17) API.
javac --release 8 -nowarn -cp "$LEGACY_JARS" -d "$LEGACY_CLASSES" \
  jupiter-compat/src/legacy/java/compat/legacy/BenchmarkService.java \
  jupiter-compat/src/legacy/java/compat/legacy/LegacyBenchmarkServer.java 2>/dev/null
javac --release 17 -nowarn -cp "$LEGACY_CLASSES:$DRIVER_JAR:$LEGACY_JARS" -d "$LEGACY_CLASSES" \
  jupiter-benchmark/driver/src/legacy/java/io/jupiter/benchmark/legacy/LegacyTarget.java
LEGACY_CP="$LEGACY_CLASSES:$DRIVER_JAR:$LEGACY_JARS"
LEGACY_JAVA=(java --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED
  --add-opens java.base/java.math=ALL-UNNAMED -cp "$LEGACY_CP")
