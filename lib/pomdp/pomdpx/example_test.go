package pomdpx_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpx"
)

// A factored, mixed-observability POMDPX model: a robot on two cells,
// which it sees, and a rock of unknown quality, which a noisy check
// reports.
const robotPOMDPX = `<?xml version="1.0" encoding="ISO-8859-1"?>
<pomdpx version="1.0" id="robot">
<Discount>0.95</Discount>
<Variable>
  <StateVar vnamePrev="robot_0" vnameCurr="robot_1" fullyObs="true"><ValueEnum>left right</ValueEnum></StateVar>
  <StateVar vnamePrev="rock_0" vnameCurr="rock_1"><ValueEnum>good bad</ValueEnum></StateVar>
  <ObsVar vname="sensor"><ValueEnum>ogood obad</ValueEnum></ObsVar>
  <ActionVar vname="act"><ValueEnum>move check</ValueEnum></ActionVar>
  <RewardVar vname="reward"/>
</Variable>
<InitialStateBelief>
  <CondProb><Var>robot_0</Var><Parent>null</Parent><Parameter type="TBL">
    <Entry><Instance>left</Instance><ProbTable>1</ProbTable></Entry></Parameter></CondProb>
  <CondProb><Var>rock_0</Var><Parent>null</Parent><Parameter type="TBL">
    <Entry><Instance>-</Instance><ProbTable>uniform</ProbTable></Entry></Parameter></CondProb>
</InitialStateBelief>
<StateTransitionFunction>
  <CondProb><Var>robot_1</Var><Parent>act robot_0</Parent><Parameter type="TBL">
    <Entry><Instance>move - -</Instance><ProbTable>0 1 1 0</ProbTable></Entry>
    <Entry><Instance>check - -</Instance><ProbTable>identity</ProbTable></Entry></Parameter></CondProb>
  <CondProb><Var>rock_1</Var><Parent>rock_0</Parent><Parameter type="TBL">
    <Entry><Instance>- -</Instance><ProbTable>identity</ProbTable></Entry></Parameter></CondProb>
</StateTransitionFunction>
<ObsFunction>
  <CondProb><Var>sensor</Var><Parent>act rock_1</Parent><Parameter type="TBL">
    <Entry><Instance>* * -</Instance><ProbTable>uniform</ProbTable></Entry>
    <Entry><Instance>check - -</Instance><ProbTable>0.9 0.1 0.1 0.9</ProbTable></Entry></Parameter></CondProb>
</ObsFunction>
<RewardFunction>
  <Func><Var>reward</Var><Parent>act robot_1</Parent><Parameter type="TBL">
    <Entry><Instance>move right</Instance><ValueTable>10</ValueTable></Entry></Parameter></Func>
</RewardFunction>
</pomdpx>`

func ExampleRead() {
	m, err := pomdpx.Read(strings.NewReader(robotPOMDPX), "robot.pomdpx")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m)
	fmt.Println("states:", m.States)
	fmt.Println("observations:", m.Observations)
	// The reward depends on the next robot cell: R(s, a) is its expectation.
	fmt.Println("R(robot=left,rock=good, move) =", m.R[0][0])
	// Output:
	// robot: |S|=4 |A|=2 |O|=4
	// states: [robot=left,rock=good robot=left,rock=bad robot=right,rock=good robot=right,rock=bad]
	// observations: [robot=left,sensor=ogood robot=left,sensor=obad robot=right,sensor=ogood robot=right,sensor=obad]
	// R(robot=left,rock=good, move) = 10
}

func ExampleRead_error() {
	bad := strings.Replace(robotPOMDPX, "0.9 0.1 0.1 0.9", "0.9 0.1 0.1", 1)
	_, err := pomdpx.Read(strings.NewReader(bad), "robot.pomdpx")
	fmt.Println(err)
	// Output:
	// pomdp: robot.pomdpx:27: ObsFunction sensor ProbTable: has 3 numbers, want 4 (one per combination of the "-" positions: rock_1 (2 values) × sensor (2 values))
}

func ExampleWrite() {
	m := pomdp.Must(pomdp.New(pomdp.Dense{
		Name:         "coin",
		States:       []string{"heads", "tails"},
		Actions:      []string{"look"},
		Observations: []string{"H", "T"},
		T:            [][][]float64{{{1, 0}, {0, 1}}},
		Z:            [][][]float64{{{0.8, 0.2}, {0.2, 0.8}}},
		R:            [][]float64{{1}, {0}},
	}))
	if err := pomdpx.Write(os.Stdout, m); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <!-- written by pomdpq WritePOMDPX: a flat model, one state variable -->
	// <pomdpx version="1.0" id="coin" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="pomdpx.xsd">
	// <Description>coin</Description>
	// <!-- the model has no discount; the format requires one -->
	// <Discount>1</Discount>
	// <Variable>
	// <StateVar vnamePrev="state_0" vnameCurr="state_1" fullyObs="false">
	// <ValueEnum>heads tails</ValueEnum>
	// </StateVar>
	// <ObsVar vname="obs_sensor">
	// <ValueEnum>H T</ValueEnum>
	// </ObsVar>
	// <ActionVar vname="action_agent">
	// <ValueEnum>look</ValueEnum>
	// </ActionVar>
	// <RewardVar vname="reward_agent"/>
	// </Variable>
	// <InitialStateBelief>
	// <CondProb>
	// <Var>state_0</Var>
	// <Parent>null</Parent>
	// <Parameter type="TBL">
	// <Entry><Instance>-</Instance><ProbTable>uniform</ProbTable></Entry>
	// </Parameter>
	// </CondProb>
	// </InitialStateBelief>
	// <StateTransitionFunction>
	// <CondProb>
	// <Var>state_1</Var>
	// <Parent>action_agent state_0</Parent>
	// <Parameter type="TBL">
	// <Entry><Instance>look - -</Instance><ProbTable>identity</ProbTable></Entry>
	// </Parameter>
	// </CondProb>
	// </StateTransitionFunction>
	// <ObsFunction>
	// <CondProb>
	// <Var>obs_sensor</Var>
	// <Parent>action_agent state_1</Parent>
	// <Parameter type="TBL">
	// <Entry><Instance>look - -</Instance><ProbTable>
	// 0.8 0.2
	// 0.2 0.8
	// </ProbTable></Entry>
	// </Parameter>
	// </CondProb>
	// </ObsFunction>
	// <RewardFunction>
	// <Func>
	// <Var>reward_agent</Var>
	// <Parent>action_agent state_0</Parent>
	// <Parameter type="TBL">
	// <Entry><Instance>look -</Instance><ValueTable>1 0</ValueTable></Entry>
	// </Parameter>
	// </Func>
	// </RewardFunction>
	// </pomdpx>
}
