import { Hero } from '../components/landing/Hero';
import { HowItWorks } from '../components/landing/HowItWorks';
import { FoodWaste } from '../components/landing/FoodWaste';
import { CoParents } from '../components/landing/CoParents';
import { Savings } from '../components/landing/Savings';
import { ClosingCall } from '../components/landing/ClosingCall';

/** The public landing page (spec section 2). */
export default function Landing() {
  return (
    <>
      <Hero />
      <HowItWorks />
      <FoodWaste />
      <CoParents />
      <Savings />
      <ClosingCall />
    </>
  );
}
