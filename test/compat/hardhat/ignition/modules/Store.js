// Deploys Store(42) and sets 7, from an artifact the test writes with the npm `solc` package.
import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";
import storeArtifact from "../../artifacts/Store.json" with { type: "json" };

export default buildModule("StoreModule", (m) => {
  const store = m.contract("Store", storeArtifact, [42n]);
  m.call(store, "set", [7n]);
  return { store };
});
