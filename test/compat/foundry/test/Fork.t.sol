// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
import {Counter, vm} from "../src/Counter.sol";

contract ForkTest {
    function test_deployedCounterOnFork() public {
        Counter counter = Counter(vm.envAddress("COUNTER"));
        require(counter.count() == 1, "count on the fork");
        counter.bump();
        require(counter.count() == 2, "bumped on the fork");
    }
}
