import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";

// As Hardhat's sample project tests its Lock: a fixture loaded again by every test, time moved by the network helpers.
// LOCK_ROUNDS repeats the suite (npm run bench:hardhat-suite runs it so).
for (let round = 0; round < Number(process.env.LOCK_ROUNDS ?? 1); round++) describe(`Lock, with Hardhat's network helpers and viem's test client (${round})`, async () => {
  const { viem, networkHelpers } = await network.getOrCreate();
  const { loadFixture, time } = networkHelpers;
  const publicClient = await viem.getPublicClient();
  const ONE_YEAR = 365n * 24n * 60n * 60n;
  const LOCKED = 1_000_000_000n;

  async function deployOneYearLock() {
    const unlockTime = BigInt(await time.latest()) + ONE_YEAR;
    const lock = await viem.deployContract("Lock", [unlockTime], { value: LOCKED });
    return { lock, unlockTime };
  }

  it("holds the unlock time it was given (a test that only reads)", async () => {
    const { lock, unlockTime } = await loadFixture(deployOneYearLock);
    assert.equal(await lock.read.unlockTime(), unlockTime);
  });

  it("refuses a withdrawal before the unlock time", async () => {
    const { lock } = await loadFixture(deployOneYearLock);
    await assert.rejects(lock.write.withdraw(), /You can't withdraw yet/);
  });

  it("pays out once the time has come", async () => {
    const { lock, unlockTime } = await loadFixture(deployOneYearLock);
    await time.increaseTo(unlockTime);
    const hash = await lock.write.withdraw();
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success");
    assert.equal(await publicClient.getBalance({ address: lock.address }), 0n);
  });

  it("is back before the unlock time in the next test, funds and clock", async () => {
    const { lock, unlockTime } = await loadFixture(deployOneYearLock);
    assert.equal(await publicClient.getBalance({ address: lock.address }), LOCKED);
    await networkHelpers.mine();
    assert.ok(BigInt(await time.latest()) < unlockTime, "a block mined now comes before the unlock time");
  });

  it("mines through viem's test client", async () => {
    const testClient = await viem.getTestClient();
    const before = await publicClient.getBlockNumber();
    await testClient.mine({ blocks: 3 });
    assert.equal(await publicClient.getBlockNumber(), before + 3n);
  });
});
