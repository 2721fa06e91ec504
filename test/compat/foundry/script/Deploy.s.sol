// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
import {Counter, vm} from "../src/Counter.sol";

contract Deploy {
    function run() external {
        vm.startBroadcast();
        Counter counter = new Counter();
        counter.bump();
        vm.stopBroadcast();
    }
}
